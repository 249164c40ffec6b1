/**
 * Reads a resource.
 *
 * @method resourceRead
 * @direction Client → Server
 * @messageType Request
 * @version 2
 * @throws `NotFound` (`-32008`) if the URI does not exist.
 * @example
 * ```jsonc
 * // Client → Server
 * { "jsonrpc": "2.0", "id": 1, "method": "resourceRead", "params": { "uri": "file:///a" } }
 *
 * // Server → Client
 * { "jsonrpc": "2.0", "id": 1, "result": { "data": "aGk=", ... } }
 * ```
 */
export interface ResourceReadParams {
	uri: string;
}
export interface ResourceReadResult {
	data: string;
}
/**
 * Stop listening.
 * @method unsubscribe
 * @direction Client → Server
 * @messageType Notification
 * @deprecated use close instead
 */
export interface UnsubscribeParams {
	resource: string;
}
/**
 * @method ping
 * @direction Server → Client
 * @messageType Request
 */
