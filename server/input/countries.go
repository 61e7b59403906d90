package input

import (
	"strings"
	"unicode"

	"kith/store"
)

// Country reads a country as a person writes it: an ISO 3166-1 alpha-2
// code ("de", "FR") or a name, in English ("Germany", "United States",
// "Côte d'Ivoire") or as people often write it ("USA", "UK", "Great
// Britain", "Deutschland"), ignoring case, accents, dots and extra spaces.
// The answer is the code; false when it names no country. store's table
// has the codes and the English short names; countryAlternates the other
// spellings, and the accented names without their accents.
func Country(s string) (string, bool) {
	if code, ok := store.CountryByName(s); ok {
		return code, true
	}
	folded := foldName(s)
	if code, ok := store.CountryByName(folded); ok {
		return code, true
	}
	code, ok := countryAlternates[folded]
	return code, ok
}

// countryAlternates are names that store's table lacks, as foldName
// writes them: the accented ones unaccented, and names that address
// books and people use for countries whose ISO name is seldom said.
var countryAlternates = map[string]string{
	// The table's accented names, and its accented alternates.
	"aland islands": "AX", "saint barthelemy": "BL", "cote d'ivoire": "CI", "curacao": "CW", "reunion": "RE",
	"turkiye": "TR", "espana": "ES", "mexico": "MX", "osterreich": "AT",
	// Other names in use.
	"united states of america": "US", "u s": "US", "u s a": "US", "u k": "GB", "britain": "GB",
	"united kingdom of great britain and northern ireland": "GB", "northern ireland": "GB",
	"ivory coast": "CI", "cape verde": "CV", "burma": "MM", "swaziland": "SZ", "macedonia": "MK",
	"east timor": "TL", "vatican": "VA", "vatican city": "VA", "holy see": "VA", "palestine": "PS",
	"micronesia": "FM", "brunei": "BN", "falkland islands": "FK", "the gambia": "GM", "the bahamas": "BS",
	"democratic republic of the congo": "CD", "dr congo": "CD", "congo-kinshasa": "CD",
	"republic of the congo": "CG", "congo-brazzaville": "CG", "the czech republic": "CZ",
	"korea, south": "KR", "republic of korea": "KR", "korea, north": "KP", "south korea": "KR", "north korea": "KP",
	"the united states": "US", "the united kingdom": "GB", "the philippines": "PH", "the uk": "GB", "the usa": "US",
	"united arab emirates": "AE", "uae": "AE", "st lucia": "LC", "st kitts and nevis": "KN", "saint kitts": "KN",
	"st vincent and the grenadines": "VC", "trinidad": "TT", "bosnia": "BA", "bosnia-herzegovina": "BA",
	"frankreich": "FR", "deutschland": "DE", "schweiz": "CH", "suisse": "CH", "svizzera": "CH", "italia": "IT",
	"nederland": "NL", "belgique": "BE", "belgie": "BE", "sverige": "SE", "norge": "NO", "danmark": "DK",
	"suomi": "FI", "polska": "PL", "brasil": "BR", "nippon": "JP", "hellas": "GR", "eire": "IE",
}

// accents maps a letter with a mark to the letter without it.
var accents = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "ā", "a", "ă", "a", "ą", "a",
	"ç", "c", "ć", "c", "č", "c", "ď", "d", "đ", "d",
	"è", "e", "é", "e", "ê", "e", "ë", "e", "ē", "e", "ė", "e", "ę", "e", "ě", "e",
	"ì", "i", "í", "i", "î", "i", "ï", "i", "ī", "i", "į", "i", "ı", "i",
	"ł", "l", "ñ", "n", "ń", "n", "ň", "n",
	"ò", "o", "ó", "o", "ô", "o", "õ", "o", "ö", "o", "ø", "o", "ō", "o", "ő", "o",
	"ř", "r", "ś", "s", "š", "s", "ş", "s", "ș", "s", "ť", "t", "ţ", "t", "ț", "t",
	"ù", "u", "ú", "u", "û", "u", "ü", "u", "ū", "u", "ů", "u", "ű", "u", "ų", "u",
	"ý", "y", "ÿ", "y", "ź", "z", "ż", "z", "ž", "z",
	"ß", "ss", "æ", "ae", "œ", "oe", "’", "'", "‘", "'",
)

// foldName is a name in lower case without accents or dots, its words
// one space apart: "  U.S.A. " is "usa", "CÔTE D’IVOIRE" "cote d'ivoire".
func foldName(s string) string {
	s = accents.Replace(strings.ToLower(s))
	s = strings.ReplaceAll(s, ".", "")
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}
