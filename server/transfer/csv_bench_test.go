package transfer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
)

// googleCSV5000 is a Google export of n contacts, each with a name, an
// email, a phone and a label, as the speed rule of §1 has them.
func googleCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("First Name,Middle Name,Last Name,Phonetic First Name,Phonetic Middle Name,Phonetic Last Name," +
		"Name Prefix,Name Suffix,Nickname,File As,Organization Name,Organization Title,Organization Department," +
		"Birthday,Notes,Photo,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\r\n")
	for i := range n {
		fmt.Fprintf(&b, "Person%d,,Number%d,,,,,,,,,,,,,,* myContacts ::: Friends,* Home,person%d@example.com,Mobile,+1 555 %07d\r\n",
			i, i, i, i)
	}
	return b.Bytes()
}

// BenchmarkReadGoogleCSV5000 reads a Google file of 5,000 contacts into
// their records.
func BenchmarkReadGoogleCSV5000(b *testing.B) {
	file := googleCSV(5000)
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewCSVReader(file, csvOpts("", nil))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil || rec.Person == nil || len(rec.Person.ContactDetails) != 2 || len(rec.Person.Tags) != 1 {
				b.Fatalf("%v: %+v", err, rec)
			}
			n++
		}
		if n != 5000 {
			b.Fatalf("%d records", n)
		}
	}
}
