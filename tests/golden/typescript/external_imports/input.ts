import type { ActionEnvelope, Unknown } from './actions.js';
export interface Replay {
	actions: ActionEnvelope[];
	other: Unknown;
}
