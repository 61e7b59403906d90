package server

import (
	"strconv"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// The task list is the API's largest answer. Encoding it by reflection
// was a tenth of its CPU, so tasks are written by hand, byte for byte as
// encoding/json writes them without HTML escaping: FuzzTaskJSON holds the
// two equal. (Written into a fresh buffer per answer, as at first, it gave
// back in garbage collection what it saved; into a pooled one it pays:
// see writeJSON.)

// writeTasks answers {"data": [tasks]}.
func writeTasks(c echo.Context, status int, tasks []taskJSON) error {
	return writeJSON(c, status, func(b []byte) []byte {
		b = append(b, `{"data":[`...)
		for i := range tasks {
			if i > 0 {
				b = append(b, ',')
			}
			b = tasks[i].appendJSON(b)
		}
		return append(b, "]}\n"...)
	})
}

// writeTask answers {"data": task}.
func writeTask(c echo.Context, status int, t taskJSON) error {
	return writeJSON(c, status, func(b []byte) []byte {
		b = append(b, `{"data":`...)
		b = t.appendJSON(b)
		return append(b, "}\n"...)
	})
}

// appendJSON appends t as encoding/json would marshal it.
func (t *taskJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, t.ID, 10)
	b = append(b, `,"object":`...)
	b = appendJSONString(b, t.Object)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, t.Name)
	b = append(b, `,"is_completed":`...)
	b = strconv.AppendBool(b, t.IsCompleted)
	b = append(b, `,"due_at":`...)
	b = appendIntOrNull(b, t.DueAt)
	b = append(b, `,"completed_at":`...)
	b = appendIntOrNull(b, t.CompletedAt)
	b = append(b, `,"task_category":`...)
	if c := t.TaskCategory; c == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, c.ID, 10)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, c.Name)
		b = append(b, `,"color":`...)
		b = appendJSONString(b, c.Color)
		b = append(b, '}')
	}
	b = append(b, `,"person":{"id":`...)
	b = strconv.AppendInt(b, t.Person.ID, 10)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, t.Person.Name)
	b = append(b, `},"created_at":`...)
	b = strconv.AppendInt(b, t.CreatedAt, 10)
	b = append(b, `,"updated_at":`...)
	b = strconv.AppendInt(b, t.UpdatedAt, 10)
	return append(b, '}')
}

func appendIntOrNull(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, *v, 10)
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping off:
// control characters escaped, invalid UTF-8 as U+FFFD, and U+2028 and
// U+2029 escaped for JavaScript's sake.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
