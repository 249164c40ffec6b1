export const VERSION = "2.0";
export const LEVELS = ["debug", "info", "error"] as const;
export const CODES = { NotFound: -32001, Busy: -32002 } as const;
export const MUTABLE = { name: "x", count: 1 };
/** `typeof` a string constant: its literal. */
export type Version = typeof VERSION;
/** The element type of an `as const` array. */
export type Level = (typeof LEVELS)[number];
/** The keys of an `as const` object. */
export type LevelName = keyof typeof CODES;
/** Without `as const` the object's properties widen. */
export type Shape = typeof MUTABLE;
/** The values of an `as const` object. */
export type Code = (typeof CODES)[keyof typeof CODES];
