package demo

// Color is a document color.
type Color string

const (
	ColorRed   Color = "red"
	ColorGreen Color = "green"
)

// OpenParams is the client's request to open a document: client → server.
type OpenParams struct {
	URI         string `json:"uri"`
	DisplayName string `json:"displayName"`
	Color       Color  `json:"color,omitempty"` // "red" or "green"
	Part        Part   `json:"part"`
}

// Part is a part of a document, tagged by `type`.
type Part struct {
	Type string `json:"type"` // "text" or "image"
	Text string `json:"text,omitempty"`
	Data string `json:"data,omitempty"`
}

// OpenResult is the server's response to open.
type OpenResult struct {
	OK bool `json:"ok"`
}

// AskParams is the server's request to ask the user a question: server → client.
type AskParams struct {
	Question string `json:"question"`
}

// AskResult is the client's response to ask.
type AskResult struct {
	Color Color `json:"color"` // "red" or "green"
}

const (
	MethodOpen = "open"
	MethodAsk  = "ask"
)
