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
export interface OpenResult {
	ok: boolean;
}
export interface ImagePart {
	data: string;
	type: 'image';
}
export interface TextPart {
	text: string;
	type: 'text';
}
export type Part = ImagePart | TextPart;
/**
 * Opens a document.
 *
 * @method open
 * @direction Client → Server
 * @messageType Request
 */
export interface OpenParams {
	label: string | null;
	count: number;
	part?: Part;
	color?: Color;
	uri: string;
}
export const enum Color {
	Green = 'green',
	Red = 'red',
}
