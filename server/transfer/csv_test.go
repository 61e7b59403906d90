package transfer

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/unicode"

	"kith/server/input"
)

// TestCSVGeneric reads a file of European Excel (; between fields) with
// a mapping (§5.4): several columns to email, the address fields into
// one address, tags split at , and ;, a column named by its own field
// name, and the columns left out.
func TestCSVGeneric(t *testing.T) {
	mapping, err := ParseCSVMapping(`{"Prénom": "first_name", "Nom": "last_name", "Courriel": "email",
		"courriel pro": "email", "Téléphone": "phone", "Rue": "street", "Ville": "city", "Code postal": "postal_code",
		"Pays": "country", "Anniversaire": "birthday", "Étiquettes": "tags", "Remarques": "notes", "Société": "company",
		"Poste": "JOB_TITLE", "Inutile": "ignore"}`)
	if err != nil {
		t.Fatal(err)
	}
	r, recs := mustReadCSV(t, csvFixture(t, "generic-semicolon.csv"), csvOpts("", mapping))
	if r.Format() != CSVGeneric {
		t.Errorf("format %q, want generic", r.Format())
	}
	checkStrings(t, "ignored columns", r.IgnoredColumns(), []string{"Inutile", "Extra"})
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	checkPerson(t, recs[0],
		`first_name "Amélie"`, `last_name "Poulain"`, `nickname "Mélie"`,
		`age exact 1973-09-22 remind=true`,
		`tags ["Cinéma" "Paris" "Café"]`,
		`email 1 [-] "amelie@example.fr"`, `email 2 [-] "amelie@cafe.example"`,
		`phone 1 [-] "+33 1 42 00 00 00"`,
		`address 1 [-] street="15 Rue des Trois Frères" city="Paris" region="" postal_code="75018" country="FR"`,
		`note "Aime les ricochets; et les framboises"`,
		`work "Serveuse" at "Café des 2 Moulins" active=true`)
	checkProblems(t, recs[0])
	checkPerson(t, recs[1], `first_name "Nino"`, `last_name "Quincampoix"`, `date [birthday] ---05-03 remind=true`)
	if rec := recs[2]; rec.Line != 4 || rec.Skipped != "the row has no name" || rec.Person != nil {
		t.Errorf("the row without a name: %+v", rec)
	}
	checkPerson(t, recs[3], `first_name "Raymond"`, `last_name "Dufayel"`)
	checkProblems(t, recs[3], "Anniversaire: not a date: in the winter",
		"Courriel: The value field must be a valid email address.")
}

// TestCSVGenericHeader: a header of Kith's own field names needs no
// mapping; its names are compared trimmed and ignoring case, and values
// over Kith's limits are problems, or skip a row whose first name is one.
func TestCSVGenericHeader(t *testing.T) {
	long := strings.Repeat("x", 256)
	tag := strings.Repeat("t", 51)
	file := " First_Name ,LAST_NAME,email,Email,website,phone,tags,how_we_met,maiden_name,birthday\n" +
		"Jo,Doe,jo@example.com,jo@work.example,https://jo.example,+1 555 0100,\"a;b, " + tag + "\",At school,Roe,1990-01-02\n" +
		long + ",Long,,,,,,,,\n" +
		"Al,Bee,,,http://al.example/x y,no digits,,,,2030-05-06\n"
	r, recs := mustReadCSV(t, []byte(file), csvOpts("", nil))
	if r.Format() != CSVGeneric || len(r.IgnoredColumns()) != 0 || len(recs) != 3 {
		t.Fatalf("format %q, ignored %q, %d records", r.Format(), r.IgnoredColumns(), len(recs))
	}
	checkPerson(t, recs[0], `first_name "Jo"`, `last_name "Doe"`, `maiden_name "Roe"`, `how_we_met "At school"`,
		`age exact 1990-01-02 remind=true`, `tags ["a" "b"]`,
		`email 1 [-] "jo@example.com"`, `email 2 [-] "jo@work.example"`, `website 1 [-] "https://jo.example"`,
		`phone 1 [-] "+1 555 0100"`)
	checkProblems(t, recs[0], "tags: The name field must not be greater than 50 characters.")
	if rec := recs[1]; rec.Person != nil || rec.Skipped != "The first name field must not be greater than 255 characters." ||
		rec.Line != 3 || rec.Name != long+" Long" {
		t.Errorf("the row with a long first name: %+v", rec)
	}
	// A birthday after this year is no age: a birthday date.
	checkPerson(t, recs[2], `first_name "Al"`, `last_name "Bee"`, `date [birthday] 2030-05-06 remind=true`)
	checkProblems(t, recs[2], "website: The value field must be a valid URL.",
		"phone: The value field format is invalid.")
}

// TestCSVMappingErrors: a mapping that is no JSON object of strings, a
// field that is none of Kith's, a column that is not in the header.
func TestCSVMappingErrors(t *testing.T) {
	for _, bad := range []string{`[]`, `"first_name"`, `{"Name": 1}`, `{"Name": "first_name"} {}`, `{"Name": "first_name"`,
		`{"Name": null}`, `not json`} {
		_, err := ParseCSVMapping(bad)
		if got := fileErrors(t, err, "mapping"); len(got) != 1 || got[0] != "The mapping field must be a JSON object." {
			t.Errorf("%s: %q", bad, got)
		}
	}
	if m, err := ParseCSVMapping(" "); m != nil || err != nil {
		t.Errorf("an empty mapping: %v, %v", m, err)
	}
	mapping, err := ParseCSVMapping(`{"Prénom": "firstname", "Nom": "last_name", "Téléphone": "phone", "Courriel": "email"}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewCSVReader([]byte("Prénom,Nom,Mail\nA,B,c@example.com\n"), csvOpts("", mapping))
	var ve *input.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error, got %v", err)
	}
	checkStrings(t, "fields", ve.Fields(), []string{"mapping.Prénom", "mapping.Téléphone", "mapping.Courriel"})
	checkStrings(t, "messages", ve.Messages(), []string{"The mapping.Prénom field is invalid.",
		"The mapping.Téléphone field names no column.", "The mapping.Courriel field names no column."})
}

// TestCSVFormats: the format found from the header (§5.1), the format
// asked for, and the refusals of an unknown format or header.
func TestCSVFormats(t *testing.T) {
	for _, c := range []struct {
		header, format string
		mapped         bool
		want           string
	}{
		{"First Name,Last Name,E-mail 1 - Label,E-mail 1 - Value", "", false, CSVGoogle},
		{"Name,Given Name,Family Name,Group Membership", "", false, CSVGoogle},
		{" first name , e-mail 1 - VALUE ", "", false, CSVGoogle},
		{"First Name,Last Name,E-mail Address", "", false, CSVOutlook},
		{"First Name,Mobile Phone", "", false, CSVOutlook},
		{"First Name,Home Street", "", false, CSVOutlook},
		{"first_name,email,IGNORE", "", false, CSVGeneric},
		{"Prénom,Courriel", "", true, CSVGeneric},
		{"Prénom,Courriel", "auto", true, CSVGeneric},
		{"First Name,Mobile Phone", "google", false, CSVGoogle},
		{"first_name", "outlook", false, CSVOutlook},
	} {
		var mapping CSVMapping
		if c.mapped {
			mapping = CSVMapping{}
		}
		r, err := NewCSVReader([]byte(c.header+"\n"), csvOpts(c.format, mapping))
		if err != nil || r.Format() != c.want {
			t.Errorf("%q (format %q): %v, %v, want %s", c.header, c.format, r, err, c.want)
		}
	}
	for _, header := range []string{"First Name,Last Name", "Prénom,Courriel", "first_name,", "Given Name,E-mail 1 - Value"} {
		_, err := NewCSVReader([]byte(header+"\n"), csvOpts("", nil))
		got := fileErrors(t, err, "file")
		if len(got) != 2 || got[0] != "The columns were not recognized: send a mapping." ||
			got[1] != "The header's columns are: "+strings.ReplaceAll(header, ",", ", ")+"." {
			t.Errorf("%q: %q", header, got)
		}
	}
	_, err := NewCSVReader([]byte("first_name\nA\n"), csvOpts("excel", nil))
	if got := fileErrors(t, err, "format"); len(got) != 1 || got[0] != "The selected format is invalid." {
		t.Errorf("an unknown format: %q", got)
	}
}

// TestCSVEncodings: UTF-8 with a byte order mark, UTF-16 both ways with
// one, and Windows-1252, whose 0x80–0x9F are € – … and not controls.
func TestCSVEncodings(t *testing.T) {
	text := "first_name,last_name,notes\r\nŁukasz,Świątek,\"a, b – 5 € …\"\r\n"
	utf16 := func(e unicode.Endianness) []byte {
		b, err := unicode.UTF16(e, unicode.UseBOM).NewEncoder().Bytes([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for name, file := range map[string][]byte{
		"UTF-8":          []byte(text),
		"UTF-8 with BOM": append([]byte("\uFEFF"), text...),
		"UTF-16 LE":      utf16(unicode.LittleEndian),
		"UTF-16 BE":      utf16(unicode.BigEndian),
	} {
		r, recs, err := readAllCSV(file, csvOpts("", nil))
		if err != nil || r.Format() != CSVGeneric || len(recs) != 1 {
			t.Errorf("%s: %v, %d records", name, err, len(recs))
			continue
		}
		checkPerson(t, recs[0], `first_name "Łukasz"`, `last_name "Świątek"`, `note "a, b – 5 € …"`)
	}
	cp1252 := []byte("first_name,notes\nRen\xe9,\x93Quoted\x94 \x80 5 \x96 ok \x85\n")
	if _, recs, err := readAllCSV(cp1252, csvOpts("", nil)); err != nil || len(recs) != 1 {
		t.Errorf("Windows-1252: %v", err)
	} else {
		checkPerson(t, recs[0], `first_name "René"`, `note "“Quoted” € 5 – ok …"`)
	}
}

// brokenFile is a file whose fifth record (the header's the first) spans
// lines 5 and 6, and whose line 7 starts with row.
func brokenFile(row string) []byte {
	return []byte("first_name,last_name,notes\n" +
		"A,One,x\n" +
		"B,Two,x\n" +
		"C,Three,x\n" +
		"D,Four,\"two\nlines\"\n" +
		row + "\n" +
		"F,Six,x\n" +
		"G,Seven,\"another\"\n")
}

// TestCSVSyntax: a broken record is refused by the line where it starts,
// whatever lines records before it span; too many fields too.
func TestCSVSyntax(t *testing.T) {
	for _, c := range []struct{ row, want string }{
		{`E,Five,"never closed`, "line 7: a quoted field is not closed."},
		{`E,Fi"ve,x`, "line 7: " + msgStrayQuote},
		{`E,"Five"x,x`, "line 7: " + msgAfterQuote},
		{`E,Five,x,more`, "line 7: the record has 4 fields, more than the header's 3."},
	} {
		_, recs, err := readAllCSV(brokenFile(c.row), csvOpts("", nil))
		if got := fileErrors(t, err, "file"); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %q, want %q", c.row, got, c.want)
		}
		if len(recs) != 4 {
			t.Errorf("%s: %d records before the broken one", c.row, len(recs))
		}
	}

	// A quote never closed runs to the end: still the line it starts on.
	_, _, err := readAllCSV([]byte("first_name\nA\n\"B\nC\nD\n"), csvOpts("", nil))
	if got := fileErrors(t, err, "file"); len(got) != 1 || got[0] != "line 3: a quoted field is not closed." {
		t.Errorf("an open quote at the end: %q", got)
	}

	file := "first_name,last_name,notes\r\n" +
		"\r\n" + // blank
		"A,One,\"x, \"\"y\"\"\r\nz\"\r\n" + // lines 3-4
		",,\r\n" + // blank too
		"B\r\n" + // fewer fields: the rest empty
		"C,Three,x,,\r\n" + // more, but empty
		"D,\"\",\"\"" // no line break at the end
	_, recs := mustReadCSV(t, []byte(file), csvOpts("", nil))
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	for i, line := range []int{3, 6, 7, 8} {
		if recs[i].Line != line {
			t.Errorf("record %d on line %d, want %d", i, recs[i].Line, line)
		}
	}
	checkPerson(t, recs[0], `first_name "A"`, `last_name "One"`, `note "x, \"y\"\nz"`)
	checkPerson(t, recs[1], `first_name "B"`)
	checkPerson(t, recs[2], `first_name "C"`, `last_name "Three"`, `note "x"`)
	checkPerson(t, recs[3], `first_name "D"`)

	// Old Macs end lines with CR alone; a header with more ; than , is
	// European Excel's.
	_, recs = mustReadCSV(t, []byte("first_name;notes\rA;x,y\rB;\"1\r2\"\rC;z"), csvOpts("", nil))
	if len(recs) != 3 || recs[2].Line != 5 {
		t.Fatalf("CR line ends: %+v", recs)
	}
	checkPerson(t, recs[0], `first_name "A"`, `note "x,y"`)
	checkPerson(t, recs[1], `first_name "B"`, `note "1\n2"`)
}

// TestCSVLimits: 20,000 rows, blank ones not counted, and not one more;
// 20 MiB; an empty file.
func TestCSVLimits(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("first_name\n\n")
	for i := range MaxCSVRows {
		b.WriteString("P" + strconv.Itoa(i) + "\n\n")
	}
	r, recs := mustReadCSV(t, b.Bytes(), csvOpts("", nil))
	if len(recs) != MaxCSVRows || r.Rows() != MaxCSVRows || recs[MaxCSVRows-1].Line != 2*MaxCSVRows+1 {
		t.Errorf("%d records, %d rows", len(recs), r.Rows())
	}
	b.WriteString("One too many\n")
	_, _, err := readAllCSV(b.Bytes(), csvOpts("", nil))
	var ae *input.Error
	if !errors.Is(err, ErrCSVTooManyRows) || !errors.As(err, &ae) || ae.Status != http.StatusRequestEntityTooLarge ||
		ae.Message != "The file has more than 20000 rows." {
		t.Errorf("20,001 rows: %v", err)
	}

	big := append([]byte("first_name,notes\nA,"), bytes.Repeat([]byte("x"), MaxCSVBytes)...)
	if _, err := NewCSVReader(big, csvOpts("", nil)); !errors.Is(err, input.ErrBodyTooLarge) {
		t.Errorf("over 20 MiB: %v", err)
	}

	for _, empty := range []string{"", "\uFEFF", "\n\r\n", ",,\n"} {
		_, err := NewCSVReader([]byte(empty), csvOpts("", nil))
		if got := fileErrors(t, err, "file"); len(got) != 1 || got[0] != "The file field is required." {
			t.Errorf("%q: %q", empty, got)
		}
	}
	if _, recs := mustReadCSV(t, []byte("first_name\r\n"), csvOpts("", nil)); len(recs) != 0 {
		t.Errorf("a header alone: %d records", len(recs))
	}
}

// TestCSVLongHeader: a refused header of many columns lists its first
// hundred.
func TestCSVLongHeader(t *testing.T) {
	_, err := NewCSVReader([]byte(strings.Repeat("x,", 100000)+"\n"), csvOpts("", nil))
	got := fileErrors(t, err, "file")
	if len(got) != 2 || got[1] != "The header's columns are: "+strings.Repeat("x, ", 100)+"…." {
		t.Errorf("%.200q", got)
	}
}

// TestCheckCSV: the check before an import refuses what reading would,
// and passes what reading takes.
func TestCheckCSV(t *testing.T) {
	if err := CheckCSV(csvFixture(t, "google.csv"), csvOpts("", nil)); err != nil {
		t.Errorf("Google's file: %v", err)
	}
	err := CheckCSV(brokenFile(`E,Five,"never closed`), csvOpts("", nil))
	if got := fileErrors(t, err, "file"); len(got) != 1 || got[0] != "line 7: a quoted field is not closed." {
		t.Errorf("a broken file: %q", got)
	}
	err = CheckCSV(brokenFile(`E,Five,x,more`), csvOpts("", nil))
	if got := fileErrors(t, err, "file"); len(got) != 1 || !strings.HasPrefix(got[0], "line 7: the record has 4 fields") {
		t.Errorf("too many fields: %q", got)
	}
	rows := "first_name\n" + strings.Repeat("A\n", MaxCSVRows+1)
	if err := CheckCSV([]byte(rows), csvOpts("", nil)); !errors.Is(err, ErrCSVTooManyRows) {
		t.Errorf("20,001 rows: %v", err)
	}
	if err := CheckCSV([]byte("Foo\nA\n"), csvOpts("", nil)); len(fileErrors(t, err, "file")) != 2 {
		t.Errorf("an unknown header: %v", err)
	}
}

// TestCSVHeader: the header and its format, for the mapping's form.
func TestCSVHeader(t *testing.T) {
	for _, c := range []struct{ file, format string }{
		{"\uFEFF Prénom ;Courriel;Notes\nA;b;c\n", ""},
		{"First Name,Last Name,E-mail 1 - Value\n", CSVGoogle},
		{"first_name,email\n", CSVGeneric},
	} {
		header, format, err := CSVHeader([]byte(c.file))
		want := strings.Split(strings.TrimPrefix(strings.SplitN(c.file, "\n", 2)[0], "\uFEFF"), ",")
		if strings.Contains(c.file, ";") {
			want = []string{"Prénom", "Courriel", "Notes"}
		}
		if err != nil || format != c.format {
			t.Errorf("%q: %q, %v, want %q", c.file, format, err, c.format)
		}
		checkStrings(t, "header", header, want)
	}
	if _, _, err := CSVHeader(nil); len(fileErrors(t, err, "file")) != 1 {
		t.Errorf("an empty file: %v", err)
	}
	if len(CSVFields) != len(csvFields()) || !csvFields()["job_title"] {
		t.Errorf("CSVFields %q", CSVFields)
	}
}
