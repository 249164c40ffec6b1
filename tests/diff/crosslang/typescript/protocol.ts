/** A document color. */
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
/** A part of a document, tagged by `type`. */
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
	displayName: string;
	color?: Color;
	part: Part;
}
export interface OpenResult {
	ok: boolean;
}
/**
 * Asks the user a question.
 *
 * @method ask
 * @direction Server → Client
 * @messageType Request
 */
export interface AskParams {
	question: string;
}
export interface AskResult {
	color: Color;
}
