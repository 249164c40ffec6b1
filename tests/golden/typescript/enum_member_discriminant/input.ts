export const enum ContentType {
	Text = 'text',
	Image = 'image',
}
export interface TextContent {
	type: ContentType.Text;
	text: string;
}
export interface ImageContent {
	type: ContentType.Image;
	data: string;
}
/** Content of a tool result. */
export type Content = TextContent | ImageContent;
