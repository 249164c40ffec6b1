export interface OpenParams { path: string }
export interface OpenResult { handle: number }
export interface PingParams { at?: number }
export interface UpdateParams { text: string }
/** Requests the client sends (no role in the name: the first role sends them). */
export interface CommandMap {
  'open': { params: OpenParams; result: OpenResult };
  'ping': { params: PingParams; result: null };
}
/** Requests the server sends too: `ping` goes both ways. */
export interface ServerCommandMap {
  'ping': { params: PingParams; result: null };
}
export interface ServerNotificationMap {
  'doc/updated': { params: UpdateParams };
  'inline': { params: { note: string } };
}
