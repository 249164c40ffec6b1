export type JSONObject = { [key: string]: unknown };
export type ContentBlock = TextContent | ImageContent;
export interface ImageContent {
	mimeType: string;
	data: string;
	type: 'image';
}
export interface TextContent {
	text: string;
	type: 'text';
}
/**
 * Gets a prompt.
 *
 * @method prompts/get
 * @direction Client → Server
 * @messageType Request
 */
export interface GetParams {
	name: string;
	capabilities: Capabilities;
}
export interface Capabilities {
	sampling?: JSONObject;
	experimental?: Record<string, JSONObject>;
}
export interface GetResult {
	content: ContentBlock;
	items: ContentBlock[];
	stopReason?: string | 'maxTokens' | 'endTurn';
}
