package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

func (t Or_Hover_contents) MarshalJSON() ([]byte, error) {
	switch x := t.Value.(type) {
	case MarkupContent:
		return json.Marshal(x)
	case string:
		return json.Marshal(x)
	case []string:
		return json.Marshal(x)
	case nil:
		return []byte("null"), nil
	}
	return nil, fmt.Errorf("type %T not one of [MarkupContent string []string]", t)
}

func (t *Or_Hover_contents) UnmarshalJSON(x []byte) error {
	if string(x) == "null" {
		t.Value = nil
		return nil
	}
	var h0 MarkupContent
	if err := json.Unmarshal(x, &h0); err == nil {
		t.Value = h0
		return nil
	}
	var h1 string
	if err := json.Unmarshal(x, &h1); err == nil {
		t.Value = h1
		return nil
	}
	var h2 []string
	if err := json.Unmarshal(x, &h2); err == nil {
		t.Value = h2
		return nil
	}
	return errors.New("unmarshal failed to match one of [MarkupContent string []string]")
}

func (t Or_int32_string) MarshalJSON() ([]byte, error) {
	switch x := t.Value.(type) {
	case int32:
		return json.Marshal(x)
	case string:
		return json.Marshal(x)
	case nil:
		return []byte("null"), nil
	}
	return nil, fmt.Errorf("type %T not one of [int32 string]", t)
}

func (t *Or_int32_string) UnmarshalJSON(x []byte) error {
	if string(x) == "null" {
		t.Value = nil
		return nil
	}
	var h0 int32
	if err := json.Unmarshal(x, &h0); err == nil {
		t.Value = h0
		return nil
	}
	var h1 string
	if err := json.Unmarshal(x, &h1); err == nil {
		t.Value = h1
		return nil
	}
	return errors.New("unmarshal failed to match one of [int32 string]")
}

func (o Or_Range_Position) MarshalJSON() ([]byte, error) {
	return json.Marshal(o.Value)
}

func (o *Or_Range_Position) UnmarshalJSON(data []byte) error {
	return json.Unmarshal(data, &o.Value)
}

func (n Name) MarshalText() ([]byte, error) {
	return []byte(n), nil
}

func (n *Name) UnmarshalText(text []byte) error {
	*n = Name(text)
	return nil
}

func (o Opaque) MarshalJSON() ([]byte, error) {
	if len(o.raw) == 0 {
		return []byte("null"), nil
	}
	return o.raw, nil
}

func (o *Opaque) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		o.raw = nil
		return nil
	}
	o.raw = append(o.raw[:0], data...)
	return nil
}
