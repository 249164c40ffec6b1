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
 * Opens a document.
 *
 * @method open
 * @direction Client → Server
 * @messageType Request
 */
export interface OpenParams {
	uri: string;
	color?: Color;
	part?: Part;
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
