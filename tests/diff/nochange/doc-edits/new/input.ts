export const enum Color {
	Red = 'red',
	Green = 'green',
}

export interface TextPart {
	type: 'text';
	text: string;
}
export interface ImagePart {
	type: 'image';
	data: string;
}
export type Part = TextPart | ImagePart;

/**
 * Opens a document in the editor.
 *
 * The server answers once the document is loaded.
 *
 * @method open
 * @direction Client → Server
 * @messageType Request
 */
export interface OpenParams {
	uri: string;
	color?: Color;
	part?: Part;
	/** How many views to open. */
	count: number;
	label: string | null;
}
export interface OpenResult {
	ok: boolean;
}
/**
 * Tells the client a document closed.
 *
 * @method closed
 * @direction Server → Client
 * @messageType Notification
 */
export interface ClosedParams {
	uri: string;
}
