package server

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzTaskJSON holds the hand-written task encoding equal, byte for byte,
// to encoding/json's (without HTML escaping), whatever the strings hold.
func FuzzTaskJSON(f *testing.F) {
	f.Add("Call back", "Jim Halpert", "Call", "bg-blue-100", int64(1), int64(1773532800), uint8(0))
	f.Add("<b>&amp;</b> \"quoted\" \\ back\\slash", "Zoë ☃", "\u2028\u2029", "\x00\x1f\x7f", int64(-1), int64(0), uint8(7))
	f.Add("\xff\xfe invalid \xc3", "\t\n\r\b\f", "", "é\u00a0", int64(9007199254740993), int64(-62135596800), uint8(3))
	f.Fuzz(func(t *testing.T, name, person, catName, catColor string, id, due int64, flags uint8) {
		task := taskJSON{ID: id, Object: "task", Name: name, IsCompleted: flags&1 != 0,
			Person: taskPersonJSON{ID: id / 2, Name: person}, CreatedAt: due, UpdatedAt: -due}
		if flags&2 != 0 {
			task.DueAt = &due
		}
		if flags&4 != 0 {
			task.CompletedAt = &id
		}
		if flags&8 == 0 {
			task.TaskCategory = &taskCategoryJSON{ID: due, Name: catName, Color: catColor}
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(dataBody[[]taskJSON]{[]taskJSON{task, task}}); err != nil {
			t.Fatal(err)
		}
		got := []byte(`{"data":[`)
		got = task.appendJSON(got)
		got = append(got, ',')
		got = task.appendJSON(got)
		got = append(got, "]}\n"...)
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("hand-written:\n%s\nencoding/json:\n%s", got, want.Bytes())
		}
	})
}
