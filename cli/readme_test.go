package cli

// TestREADME runs the API walkthrough (docs/api.md, ../docs/api.md from
// cli/) against a fresh server, so that a newcomer who pastes it top to
// bottom sees every line work.
//
// The convention, in docs/api.md:
//
//   - Its section "A walk through the API with curl" opens with the command
//     that starts the server for it, rate limit off, so that a paste of
//     the whole walkthrough never meets a 429.
//   - Only fenced blocks whose info string is "sh runnable" (```sh runnable)
//     inside that section (up to the next "## " heading) are run, in
//     order, as one bash script (-euo pipefail).
//     GitHub highlights them as sh; other blocks are prose.
//   - The sample credentials of the README's first-start block (its
//     password and API key) and http://127.0.0.1:8080 are replaced by those of the test
//     server, wherever they appear in the runnable blocks, comments too.
//   - A step is a command line with its "\" continuations. Its answer is
//     checked against the comment that follows it: an inline comment after
//     the command ("curl ...   # 204") and the comment lines right under it
//     that begin with {, [ or ( (and the lines after them indented by "#  ").
//   - In that comment, every "key":value pair with a scalar value (a string,
//     number, true, false or null) must appear in the JSON answer as written,
//     "…" inside a string standing for any text. A status is "(201)"
//     anywhere in the comment, or a number of three digits opening an inline
//     comment ("# 204"). Without one, the answer must be below 400.
//   - curl is a shell function of the test that records each answer's body
//     and status (curl -w '\n%{http_code}') and prints the body as curl
//     would, so the README says plain "curl -s ...".
//
// The test also checks that the README's first-start block is what the
// server prints, but for the password, the key and the address.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const walkthroughHeading = "## A walk through the API with curl"

// walkthroughFile is where the walkthrough is, from cli/.
const walkthroughFile = "../docs/api.md"

// readmeStep is one command of a runnable block and what its comment says
// of the answer.
type readmeStep struct {
	line    int    // in docs/api.md, 1-based
	command string // with its continuation lines
	expect  string // the comment that shows the answer, "" when none
	status  int    // 0 when the comment shows none
}

// readmeBlock is a runnable block: its text and steps.
type readmeBlock struct {
	line  int
	steps []readmeStep
}

var (
	statusInParens = regexp.MustCompile(`\((\d{3})\b`)
	statusOpening  = regexp.MustCompile(`^(\d{3})\b`)
	jsonPair       = regexp.MustCompile(`"([^"\\]+)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)`)
	inlineComment  = regexp.MustCompile(`\s#\s(.*)$`)
)

// runnableBlocks returns the "sh runnable" blocks of the walkthrough.
func runnableBlocks(t *testing.T, readme string) []readmeBlock {
	t.Helper()
	lines := strings.Split(readme, "\n")
	start := -1
	for i, l := range lines {
		if l == walkthroughHeading {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s has no %q section", walkthroughFile, walkthroughHeading)
	}
	if first := firstCodeLine(lines[start+1:]); !strings.HasPrefix(first, "KITH_RATE_PER_MINUTE=0 ") {
		t.Errorf("the walkthrough's first command is %q: it must start the server with KITH_RATE_PER_MINUTE=0, so that a paste never meets a 429", first)
	}
	var blocks []readmeBlock
	for i := start + 1; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			break
		}
		if !strings.HasPrefix(l, "```") {
			continue
		}
		info := strings.Fields(strings.TrimPrefix(l, "```"))
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
			end++
		}
		if len(info) == 2 && info[0] == "sh" && info[1] == "runnable" {
			blocks = append(blocks, readmeBlock{line: i + 1, steps: parseSteps(t, lines[i+1:end], i+2)})
		}
		i = end
	}
	return blocks
}

// firstCodeLine is the first line inside the first fenced block of lines.
func firstCodeLine(lines []string) string {
	for i, l := range lines {
		if strings.HasPrefix(l, "```") && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

// parseSteps splits a block into commands and the comments that show
// their answers; first is the line number of body[0] in its file.
func parseSteps(t *testing.T, body []string, first int) []readmeStep {
	t.Helper()
	var steps []readmeStep
	for i := 0; i < len(body); i++ {
		l := strings.TrimSpace(body[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		s := readmeStep{line: first + i}
		cmd := body[i]
		for strings.HasSuffix(body[i], `\`) && i+1 < len(body) {
			i++
			cmd += "\n" + body[i]
		}
		s.command = cmd
		last := body[i]
		if m := inlineComment.FindStringSubmatch(last); m != nil && !inQuotes(last[:len(last)-len(m[0])]) {
			s.expect = m[1]
			if st := statusOpening.FindStringSubmatch(m[1]); st != nil {
				s.status, _ = strconv.Atoi(st[1])
			}
		}
		// The comment lines right under it that show the answer.
		for i+1 < len(body) {
			c := strings.TrimSpace(body[i+1])
			text, ok := strings.CutPrefix(c, "# ")
			if !ok {
				break
			}
			opens := strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[") || strings.HasPrefix(text, "(")
			if !opens && !(strings.HasPrefix(c, "#  ") && s.expect != "") {
				break
			}
			s.expect += "\n" + text
			i++
		}
		if st := statusInParens.FindStringSubmatch(s.expect); st != nil {
			s.status, _ = strconv.Atoi(st[1])
		}
		steps = append(steps, s)
	}
	return steps
}

// inQuotes says whether s leaves a quote open, so a "#" after it is no comment.
func inQuotes(s string) bool {
	var q rune
	for _, r := range s {
		switch {
		case q == 0 && (r == '\'' || r == '"'):
			q = r
		case r == q:
			q = 0
		}
	}
	return q != 0
}

// pairPattern turns a "key":value of a comment into a pattern of the answer.
func pairPattern(key, value string) *regexp.Regexp {
	v := regexp.QuoteMeta(value)
	if strings.HasPrefix(value, `"`) {
		v = strings.ReplaceAll(v, "…", `(?:[^"\\]|\\.)*`)
		return regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `":` + v)
	}
	return regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `":` + v + `(?:[,}\]\s]|$)`)
}

// firstStartSample reads the password and key that the README's first-start
// block shows, and the block itself.
func firstStartSample(t *testing.T, readme string) (block, password, key string) {
	t.Helper()
	m := regexp.MustCompile("(?s)```\n(\n?Kith created its first user\\..*?)```\n").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README.md shows no first-start block (a fence holding \"Kith created its first user.\")")
	}
	block = m[1]
	password, key, ok := firstCredentials(block)
	if !ok {
		t.Fatalf("the first-start block shows no password or key:\n%s", block)
	}
	return block, password, key
}

// firstCredentials reads the password and the API key that a first start
// prints.
func firstCredentials(printed string) (password, key string, ok bool) {
	p := regexp.MustCompile(`password:\s+(\S+)`).FindStringSubmatch(printed)
	k := regexp.MustCompile(`API key:\s+(\S+)`).FindStringSubmatch(printed)
	if p == nil || k == nil {
		return "", "", false
	}
	return p[1], k[1], true
}

// curlWrapper records each answer in $KITH_README_LOG as its body and an
// "@@status NNN" line, and prints the body as curl does (with -o, the body
// goes to the file and is not checked).
const curlWrapper = `curl() {
  local out rc=0
  out=$(command curl -q -w '\n%{http_code}' "$@") || rc=$?
  printf '%s\n@@status %s\n' "${out%$'\n'*}" "${out##*$'\n'}" >> "$KITH_README_LOG"
  if [ -n "${out%$'\n'*}" ]; then printf '%s\n' "${out%$'\n'*}"; fi
  return $rc
}
`

func TestREADME(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the README test needs %s", tool)
			}
			t.Skipf("the README test needs %s, which is not on PATH", tool)
		}
	}
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sample, samplePassword, sampleKey := firstStartSample(t, string(raw))
	walk, err := os.ReadFile(walkthroughFile)
	if err != nil {
		t.Fatal(err)
	}
	blocks := runnableBlocks(t, string(walk))
	if len(blocks) == 0 {
		t.Fatal("the walkthrough marks no block as runnable (```sh runnable)")
	}

	// The walkthrough makes more requests than a user may make in a
	// minute: the walkthrough starts the server so to paste it all at once.
	t.Setenv("KITH_RATE_PER_MINUTE", "0")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kith.yaml")
	os.WriteFile(cfg, []byte("db: "+filepath.Join(dir, "kith.db")+"\n"), 0o600)
	s := startServer(t, "--config", cfg)
	addr := s.addr(t)
	printed := s.stdout.String()
	password, key, ok := firstCredentials(printed)
	if !ok {
		t.Fatalf("first start printed:\n%s", printed)
	}
	// What go run . prints, as the README shows it.
	shown := strings.NewReplacer(password, samplePassword, key, sampleKey, "http://"+addr, "http://127.0.0.1:8080").Replace(printed)
	if strings.TrimSpace(shown) != strings.TrimSpace(sample) {
		t.Errorf("the README's first-start block is not what the server prints:\nREADME:\n%s\nserver:\n%s", sample, shown)
	}

	// One script: each step appends "@@step N" to the log, then runs.
	subst := strings.NewReplacer(sampleKey, key, samplePassword, password, "http://127.0.0.1:8080", "http://"+addr)
	var script strings.Builder
	script.WriteString(curlWrapper)
	var steps []readmeStep
	for _, b := range blocks {
		fmt.Fprintf(&script, "\n# docs/api.md:%d\n", b.line)
		for _, st := range b.steps {
			fmt.Fprintf(&script, "printf '@@step %d\\n' >> \"$KITH_README_LOG\"\n%s\n", len(steps), subst.Replace(st.command))
			steps = append(steps, st)
		}
	}
	if !strings.Contains(script.String(), key) || !strings.Contains(script.String(), password) {
		t.Errorf("the runnable blocks never use the sample key %q and password %q of the first-start block", sampleKey, samplePassword)
	}
	work := t.TempDir()
	logFile := filepath.Join(work, "answers.log")
	scriptFile := filepath.Join(work, "walkthrough.sh")
	os.WriteFile(scriptFile, []byte(script.String()), 0o600)
	cmd := exec.Command("bash", "-euo", "pipefail", scriptFile)
	cmd.Dir = work
	// No proxy between curl and the test server; -q above skips ~/.curlrc.
	cmd.Env = append(os.Environ(), "KITH_README_LOG="+logFile, "no_proxy=127.0.0.1", "NO_PROXY=127.0.0.1")
	began := time.Now()
	out, runErr := cmd.CombinedOutput()
	t.Logf("ran %d steps of %d blocks in %v", len(steps), len(blocks), time.Since(began).Round(time.Millisecond))

	logged, _ := os.ReadFile(logFile)
	answers := parseAnswers(string(logged))
	for i, st := range steps {
		a, ok := answers[i]
		if !ok {
			if runErr != nil {
				t.Errorf("docs/api.md:%d: not reached: the script stopped before it:\n%s", st.line, st.command)
				break
			}
			t.Errorf("docs/api.md:%d: the step did not run", st.line)
			continue
		}
		if a.status == 0 {
			if st.expect != "" && (st.status != 0 || jsonPair.MatchString(st.expect)) {
				t.Errorf("docs/api.md:%d: the comment shows an answer, but the step made no request:\n%s", st.line, st.command)
			}
			continue
		}
		where := fmt.Sprintf("docs/api.md:%d: %s\nanswer %d: %s", st.line, st.command, a.status, a.body)
		switch {
		case st.status != 0 && a.status != st.status:
			t.Errorf("%s\nwant status %d", where, st.status)
		case st.status == 0 && a.status >= 400:
			t.Errorf("%s\nwant a success (or show the status in the comment, as (404))", where)
		}
		var lacks []string
		for _, m := range jsonPair.FindAllStringSubmatch(subst.Replace(st.expect), -1) {
			if !pairPattern(m[1], m[2]).MatchString(a.body) {
				lacks = append(lacks, m[0])
			}
		}
		if lacks != nil {
			t.Errorf("%s\nthe answer lacks %s", where, strings.Join(lacks, " "))
		}
	}
	if runErr != nil {
		t.Errorf("the walkthrough failed: %v\n%s", runErr, out)
	}
}

type readmeAnswer struct {
	status int // 0 when the step made no request
	body   string
}

// parseAnswers reads the log the script wrote: per step, the last answer.
func parseAnswers(log string) map[int]readmeAnswer {
	answers := map[int]readmeAnswer{}
	step := -1
	var body []string
	for _, l := range strings.Split(log, "\n") {
		if n, ok := strings.CutPrefix(l, "@@step "); ok {
			step, _ = strconv.Atoi(n)
			answers[step] = readmeAnswer{}
			body = nil
			continue
		}
		if n, ok := strings.CutPrefix(l, "@@status "); ok && step >= 0 {
			code, _ := strconv.Atoi(n)
			answers[step] = readmeAnswer{status: code, body: strings.Join(body, "\n")}
			body = nil
			continue
		}
		body = append(body, l)
	}
	return answers
}

// TestREADMEConvention checks how a block's comments become checks.
func TestREADMEConvention(t *testing.T) {
	body := strings.Split(`H="x"
# Prose before a command is not checked.
curl -s -X POST "$API/persons" \
  -d x   # a note, no status
# {"data":{"id":1,"name":"Michael …","age":null,"tags":[…]}}   (201)
#   "city":"Scranton"
# Prose after the answer stops it: {"ignored":true}
curl -s -X DELETE $API/x/1 -H "$H"   # 204
curl -s "$API/q?a=#b"   # 404 "Not found."`, "\n")
	steps := parseSteps(t, body, 1)
	if len(steps) != 4 {
		t.Fatalf("%d steps: %+v", len(steps), steps)
	}
	if s := steps[1]; s.line != 3 || s.status != 201 || !strings.Contains(s.command, "-d x") ||
		!strings.Contains(s.expect, `"city":"Scranton"`) || strings.Contains(s.expect, "ignored") {
		t.Errorf("step 1: %+v", s)
	}
	if steps[0].expect != "" || steps[2].status != 204 || steps[3].status != 404 {
		t.Errorf("steps: %+v", steps)
	}
	answer := `{"data":{"id":1,"name":"Michael Scott","age":null,"tags":[],"city":"Scranton"}}`
	for _, m := range jsonPair.FindAllStringSubmatch(steps[1].expect, -1) {
		if !pairPattern(m[1], m[2]).MatchString(answer) {
			t.Errorf("%s does not match %s", m[0], answer)
		}
	}
	for _, miss := range [][2]string{{"id", "10"}, {"id", `"1"`}, {"name", `"Michael"`}, {"age", "0"}, {"city", `"Scran…x"`}} {
		if pairPattern(miss[0], miss[1]).MatchString(answer) {
			t.Errorf("%s:%s matches %s", miss[0], miss[1], answer)
		}
	}
	if !pairPattern("id", "1").MatchString(`{"id":1}`) || pairPattern("id", "1").MatchString(`{"id":12}`) {
		t.Error("a number must match whole")
	}
}
