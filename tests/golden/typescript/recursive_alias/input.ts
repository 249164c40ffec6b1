/** Any JSON value, written as TypeScript specs write it. */
export type JSONValue =
  | string
  | number
  | boolean
  | null
  | JSONValue[]
  | { [key: string]: JSONValue };
export type JSONArray = JSONValue[];
/** Recursion through an interface needs nothing special. */
export interface Tree { name: string; children?: Tree[] }
export interface Holder { value: JSONValue; list: JSONArray; tree: Tree }
