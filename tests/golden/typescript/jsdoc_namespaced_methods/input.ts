/**
 * A session was added.
 *
 * @method root/sessionAdded
 * @direction Server → Client
 * @messageType Notification
 */
export interface SessionAddedParams { channel: string; id: string }

/**
 * Opens a session; its result is paired by the attached name.
 *
 * @method session/open
 * @direction Client → Server
 * @messageType Request
 */
export interface OpenSessionParams { id: string }
export interface OpenSessionResult { ok: boolean }

/**
 * A tag before a helper pairs by the wire name, not with the helper.
 *
 * @method close
 * @direction Client → Server
 * @messageType Request
 */
interface Helper { x: string }
export interface CloseParams extends Helper { id: string }
