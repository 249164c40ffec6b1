export interface RequestParams {
	_meta?: {
		progressToken?: string | number;
		[key: string]: unknown;
	};
}
export interface ResourceRequestParams extends RequestParams {
	uri: string;
}
export interface ReadParams extends ResourceRequestParams {}
export interface JSONRPCRequest {
	jsonrpc: '2.0';
	id: string | number;
	method: string;
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
export interface Result {
	_meta?: Record<string, unknown>;
}
export interface ReadResult extends Result {
	text: string;
}
