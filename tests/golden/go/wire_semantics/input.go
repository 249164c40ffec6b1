package wire

import (
	"encoding/json"
	"time"
)

// Base is embedded by Item.
type Base struct {
	Kind string `json:"kind"`
}

// Item covers every encoding/json rule the frontend models.
type Item struct {
	Base
	Name     string            `json:"name"`
	Title    string            `json:"title,omitempty"`
	Hint     int               `json:"hint,omitzero"`
	Secret   string            `json:"-"`
	Dash     string            `json:"-,"`
	NoTag    bool
	hidden   int
	Ptr      *Base             `json:"ptr"`
	OptPtr   *Base             `json:"optPtr,omitempty"`
	Raw      json.RawMessage   `json:"raw"`
	Anything any               `json:"anything,omitempty"`
	Labels   map[string]string `json:"labels"`
	Tags     []string          `json:"tags"`
	OptTags  []string          `json:"optTags,omitempty"`
	Score    float64           `json:"score"`
	Count    uint8             `json:"count"`
	Blob     []byte            `json:"blob,omitempty"`
	At       time.Time         `json:"at"`
	Nested   Base              `json:"nested,omitempty"`
	Role     string            `json:"role"` // "user" or "assistant"
	Note     string            `json:"note"` // e.g. "free text"
	Level    Level             `json:"level"`
	Priority Priority          `json:"priority,omitempty"`
	Plain    Plain             `json:"plain,omitempty"`
}

// Level is how loud a message is.
type Level string

// The levels a Go peer knows; encoding/json reads any string into a Level.
const (
	LevelInfo Level = "info" // for the record
	// LevelWarn needs a look.
	LevelWarn Level = "warn"
)

// Priority orders work; iota numbers it from 1.
type Priority int

const (
	PriorityLow Priority = iota + 1
	PriorityHigh
)

// Plain has no typed constants: it stays a string.
type Plain string

// Empty has no fields. added in v1.2.0
type Empty struct{}

// Handle is not data.
type Handle struct {
	// contains filtered or unexported fields
}

// Callback is behaviour.
type Callback func() error

// Config is read from YAML.
type Config struct {
	Name string `yaml:"name"`
}

const (
	MethodPing = "host/ping"
	Version    = 3
)
