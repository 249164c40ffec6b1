export interface TextContent {
	type: 'text';
	text: string;
}
export interface ImageContent {
	type: 'image';
	data: string;
	mimeType: string;
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
	capabilities: { sampling?: object; experimental?: { [key: string]: object } };
}
export interface GetResult {
	content: TextContent | ImageContent;
	items: (TextContent | ImageContent)[];
	stopReason?: 'endTurn' | 'maxTokens' | string;
}
