package transfer

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// TestCSVOutlookWindows reads what Outlook for Windows writes (§5.3):
// Windows-1252, every field quoted, CRLF, a line break inside a note,
// phones by kind, addresses with Street 2 and 3, M/D/YYYY and 0/0/00,
// Categories.
func TestCSVOutlookWindows(t *testing.T) {
	file := csvFixture(t, "outlook-windows.csv")
	if utf8.Valid(file) || !bytes.Contains(file, []byte{0x93}) || !bytes.Contains(file, []byte{0x80}) {
		t.Fatal("the fixture is not Windows-1252 with its curly quotes and euro sign")
	}
	r, recs := mustReadCSV(t, file, csvOpts("", nil))
	if r.Format() != CSVOutlook {
		t.Errorf("format %q, want outlook", r.Format())
	}
	checkStrings(t, "ignored columns", r.IgnoredColumns(), []string{"Department", "Assistant's Phone", "Business Fax",
		"Callback", "Home Fax", "ISDN", "Other Fax", "Pager", "Radio Phone", "TTY/TDD Phone", "Telex", "Account",
		"Assistant's Name", "Billing Information", "Business Address PO Box", "Children", "Directory Server",
		"E-mail Type", "E-mail Display Name", "E-mail 2 Type", "E-mail 2 Display Name", "E-mail 3 Type",
		"E-mail 3 Display Name", "Gender", "Government ID Number", "Hobby", "Home Address PO Box", "Initials",
		"Internet Free Busy", "Keywords", "Language", "Location", "Manager's Name", "Mileage", "Office Location",
		"Organizational ID Number", "Other Address PO Box", "Priority", "Private", "Profession", "Referred By",
		"Sensitivity", "Spouse", "User 1", "User 2", "User 3", "User 4"})
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for i, line := range []int{2, 4, 5} {
		if recs[i].Line != line {
			t.Errorf("record %d on line %d, want %d", i, recs[i].Line, line)
		}
	}
	checkPerson(t, recs[0],
		`first_name "José"`, `last_name "Müller"`, `prefix "Mr."`, `suffix "Jr."`,
		`age exact 1980-03-14 remind=true`,
		`tags ["Kunden" "VIP" "Friends"]`,
		`phone 1 [work] "+49 30 123456"`, `phone 2 [home] "+41 22 1234567"`, `phone 3 [mobile] "+49 170 1234567"`,
		`phone 4 [other] "+1 555 0199"`,
		`email 1 [-] "jose@cafe.example"`, `email 2 [-] "jose.m@home.example"`,
		`website 1 [-] "https://cafe.example"`,
		`address 1 [home] street="Rue de l’Église 5" city="Genève" region="" postal_code="1201" country="CH"`,
		`address 2 [work] street="Hauptstraße 1\nHinterhaus\n3. OG" city="Berlin" region="" postal_code="10115" country="DE"`,
		`date [anniversary] 2005-06-01 remind=true`,
		`note "Likes “flat white” — no sugar…\nOwes me 10 €"`,
		`work "Barista – Head" at "Café Crème GmbH" active=true`)
	checkProblems(t, recs[0])
	if recs[0].Name != "José Müller" {
		t.Errorf("name %q", recs[0].Name)
	}
	// 0/0/00 is Outlook's "no date": neither an age nor a problem.
	checkPerson(t, recs[1], `first_name "Zoë"`, `last_name "O'Neil"`, `email 1 [-] "zoe@example.ie"`,
		`note "He said \"hi\", then left"`)
	checkProblems(t, recs[1])
	checkPerson(t, recs[2], `first_name "Ann"`)
	checkProblems(t, recs[2], "Birthday: not a date: 13/31/1980", "Anniversary: not a date: 2/30/2001",
		"Web Page: The value field must be a valid URL.")
}

// TestCSVOutlookCom reads Outlook.com's export, Google's "Outlook CSV":
// every column of §5.3's table, in UTF-8.
func TestCSVOutlookCom(t *testing.T) {
	r, recs := mustReadCSV(t, csvFixture(t, "outlook-com.csv"), csvOpts("", nil))
	if r.Format() != CSVOutlook {
		t.Errorf("format %q, want outlook", r.Format())
	}
	checkStrings(t, "ignored columns", r.IgnoredColumns(), []string{"Given Yomi", "Surname Yomi", "Pager",
		"Business Fax", "Home Fax", "Other Fax", "Callback", "Radio Phone", "Telex", "TTY/TDD Phone", "IMAddress",
		"Department", "Office Location", "Manager's Name", "Assistant's Name", "Assistant's Phone", "Company Yomi",
		"Spouse", "Schools", "Hobby", "Location"})
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	checkPerson(t, recs[0],
		`first_name "Kim"`, `middle_name "J."`, `last_name "Park"`, `nickname "KJ"`, `prefix "Dr."`, `suffix "PhD"`,
		`age exact 1985-04-23 remind=true`,
		`email 1 [-] "kim@example.kr"`, `email 2 [-] "kim@work.example"`, `email 3 [-] "kjp@old.example"`,
		`phone 1 [home] "111"`, `phone 2 [home] "112"`, `phone 3 [work] "221"`, `phone 4 [work] "222"`,
		`phone 5 [mobile] "333"`, `phone 6 [other] "441"`, `phone 7 [other] "442"`, `phone 8 [other] "443"`,
		`phone 9 [work] "223"`,
		`website 1 [home] "https://kim.example"`, `website 2 [-] "https://hanbit.example/kim"`,
		`address 1 [home] street="2 Garden St" city="Busan" region="Busan" postal_code="48000" country="KR"`,
		// A country by its name is kept by its code.
		`address 2 [work] street="1 Tower Rd" city="Seoul" region="" postal_code="" country="KR"`,
		`address 3 [other] street="3 Beach Ave" city="Jeju" region="" postal_code="" country=""`,
		`date [anniversary] 2010-09-18 remind=true`,
		`note "Met at a conference"`,
		`work "Engineer" at "Hanbit" active=true`)
	checkProblems(t, recs[0])
	// The last name alone is the first name, and no longer the last.
	checkPerson(t, recs[1], `first_name "Solo"`, `work "Pilot" at "" active=true`)
}
