export const enum SessionStatus {
	Idle = 1,
	Error = 1 << 1,
	InProgress = 1 << 3,
	InputNeeded = (1 << 3) | (1 << 4),
	IsRead = 1 << 5,
}
export const enum Plain {
	A = 0,
	B,
	C = 10,
	D,
}
