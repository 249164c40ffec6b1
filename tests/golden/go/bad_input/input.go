package bad

type Broken struct {
	B chan int `json:"b"`
	C map[[2]int]string `json:"c"`
	D complex128 `json:"d"`
	E other.Type `json:"e"`
}

type Unclosed struct {
	A string `json:"a"

type Gen[T any] struct {
	V T `json:"v"`
}

type Dup struct{}
type Dup struct{}

const (
	MethodA = "a"
	MethodB = "a"
	X = iota
	Y = len("ab")
)
