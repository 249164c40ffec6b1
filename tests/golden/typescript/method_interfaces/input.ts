export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export type EmptyResult = Result;
export interface PingRequest extends Request { method: "ping" }
export interface OpenRequest extends Request { method: "files/open"; params: { path: string } }
export interface OpenResult extends Result { handle: number }
export interface AskRequest extends Request { method: "ask"; params: { question: string } }
export interface AskResult extends Result { answer: string }
export interface ChangedNotification extends Notification { method: "notifications/changed" }
/** The unions name who sends what. */
export type ClientRequest = PingRequest | OpenRequest;
export type ServerRequest = PingRequest | AskRequest;
export type ClientNotification = ChangedNotification;
export type ServerNotification = ChangedNotification;
export type ClientResult = EmptyResult | AskResult;
export type ServerResult = EmptyResult | OpenResult;
