/**
 * @method go
 * @direction Client → Server
 * @messageType Request
 */
export interface GoParams { target: string }
export interface GoResult { ok: boolean }
/** Nothing reaches these: they are left out with a warning, not an error. */
export type Callback = (value: string) => void;
export interface UsesCallback { on: Callback }
export interface Unrelated { a: string }
export function helper(): void {}
