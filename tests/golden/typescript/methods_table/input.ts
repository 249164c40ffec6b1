export interface Request { method: string; params?: { [key: string]: unknown } }
export interface CallParams { name: string; task?: { ttl: number } }
export interface CallResult { text: string }
export interface TaskResult { taskId: string }
export interface StatusParams { state: string }
export interface CallRequest extends Request { method: "call"; params: CallParams }
export type ClientRequest = CallRequest;
