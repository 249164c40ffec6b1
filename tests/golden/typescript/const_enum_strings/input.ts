/** How content is encoded. */
export const enum ContentEncoding {
	/** Base64 */
	Base64 = 'base64',
	Utf8 = 'utf-8',
}
export interface Payload {
	encoding: ContentEncoding;
}
