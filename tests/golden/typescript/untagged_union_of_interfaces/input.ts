export interface RootState {
	agents: string[];
}
export interface SessionState {
	summary: string;
	agents?: string[];
}
export interface TerminalState {
	title: string;
}
export interface Snapshot {
	resource: string;
	state: RootState | SessionState | TerminalState;
}
export type StringOrMarkdown = string | { markdown: string };
