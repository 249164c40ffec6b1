export interface Item { id: number; name?: string; nested: { deep: boolean } }
export interface Table {
  open: { params: { path: string } };
  close: { params: { handle: number } };
}
export interface TextPart { type: "text"; text: string }
export interface ImagePart { type: "image"; data: string }
export type Part = TextPart | ImagePart;
export type IdType = Item["id"];
export type Keys = keyof Item;
export type Methods = keyof Table;
/** `T[K]["k"]` over a union of keys. */
export type Params = Table[keyof Table]["params"];
/** An indexed access on a union: the tags of all variants. */
export type Tags = Part["type"];
