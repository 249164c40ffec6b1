/** Every request's params may carry metadata. */
export interface Meta {
	progressToken?: string | number;
	[key: string]: unknown;
}
export interface Request {
	method: string;
	id: string | number;
}
export interface JSONRPCRequest extends Request {
	jsonrpc: '2.0';
}
export interface ReadParams {
	_meta?: Meta;
	uri: string;
}
/**
 * Reads a resource.
 *
 * @method resources/read
 * @direction Client → Server
 * @messageType Request
 */
export interface ReadRequest extends JSONRPCRequest {
	params: ReadParams;
}
export interface ReadResult {
	_meta?: { [key: string]: unknown };
	text: string;
	[key: string]: unknown;
}
