package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The GitHub Actions workflows cannot run here: these tests read them, check
// what they promise (a version tag tests, builds and publishes the release
// and the container image; every action pinned to a commit), and have
// actionlint lint them where it is on PATH (.ci/run installs it).

var workflowFiles = []string{"../.github/workflows/release.yml", "../.github/workflows/container.yml"}

// ghWorkflow is the part of a workflow these tests read.
type ghWorkflow struct {
	On struct {
		Push struct {
			Tags []string `yaml:"tags"`
		} `yaml:"push"`
	} `yaml:"on"`
	Permissions any              `yaml:"permissions"`
	Jobs        map[string]ghJob `yaml:"jobs"`
}

type ghJob struct {
	Needs       any               `yaml:"needs"` // a job's name, or a list of them
	Permissions map[string]string `yaml:"permissions"`
	Uses        string            `yaml:"uses"` // a reusable workflow
	Steps       []ghStep          `yaml:"steps"`
}

type ghStep struct {
	ID   string            `yaml:"id"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

func parseWorkflow(raw []byte) (ghWorkflow, error) {
	var wf ghWorkflow
	err := yaml.Unmarshal(raw, &wf)
	if err == nil && len(wf.Jobs) == 0 {
		err = fmt.Errorf("no jobs")
	}
	return wf, err
}

func (wf ghWorkflow) jobNames() []string {
	names := make([]string, 0, len(wf.Jobs))
	for name := range wf.Jobs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// findStep is the first step, in the jobs' order by name, that match
// accepts: its job and its index there, or "" and -1.
func (wf ghWorkflow) findStep(match func(ghStep) bool) (string, int) {
	for _, name := range wf.jobNames() {
		for i, s := range wf.Jobs[name].Steps {
			if match(s) {
				return name, i
			}
		}
	}
	return "", -1
}

func usesAction(action string) func(ghStep) bool {
	return func(s ghStep) bool { return strings.HasPrefix(s.Uses, action+"@") }
}

func runsLine(re *regexp.Regexp) func(ghStep) bool {
	return func(s ghStep) bool { return re.MatchString(s.Run) }
}

// A use of an action: owner/repo[/path]@ a full commit SHA, the release it
// is beside it as a comment (uses: actions/checkout@<sha> # v4.2.2).
var (
	pinnedUse  = regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
	usesLine   = regexp.MustCompile(`^\s*(?:-\s+)?uses:\s*(.*)$`)
	pinnedLine = regexp.MustCompile(`^\S+@[0-9a-f]{40} # v\d+(?:\.\d+){0,2}$`)
)

// commonWorkflowProblems: what both workflows promise: they run on a push of
// a version tag, and run only actions pinned to a commit.
func commonWorkflowProblems(wf ghWorkflow, raw []byte) (problems []string) {
	if !slices.Contains(wf.On.Push.Tags, "v*") {
		problems = append(problems, fmt.Sprintf("not triggered on a push of tags v* (on.push.tags: %q)", wf.On.Push.Tags))
	}
	uses := 0
	for _, name := range wf.jobNames() {
		job := wf.Jobs[name]
		all := []string{job.Uses}
		for _, s := range job.Steps {
			all = append(all, s.Uses)
		}
		for _, u := range all {
			if u == "" {
				continue
			}
			uses++
			if !pinnedUse.MatchString(u) {
				problems = append(problems, fmt.Sprintf("job %s: %q is not pinned to a full 40-hex commit SHA", name, u))
			}
		}
	}
	// The version beside each SHA is a comment, which only the text keeps.
	lines := 0
	for _, line := range strings.Split(string(raw), "\n") {
		m := usesLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		lines++
		if !pinnedLine.MatchString(strings.TrimSpace(m[1])) {
			problems = append(problems, fmt.Sprintf("%q: want uses: owner/repo@<40-hex SHA> # vX.Y.Z (the pinned release as a comment)", strings.TrimSpace(line)))
		}
	}
	if uses == 0 || lines != uses {
		problems = append(problems, fmt.Sprintf("%d uses: lines but %d uses parsed: each action on its own line, please", lines, uses))
	}
	if p := topPermissionProblem(wf.Permissions); p != "" {
		problems = append(problems, p)
	}
	return problems
}

// topPermissionProblem: the token's default is set to nothing or to read,
// so that each job asks for what it writes.
func topPermissionProblem(perms any) string {
	switch p := perms.(type) {
	case map[string]any:
		for k, v := range p {
			if v == "write" {
				return fmt.Sprintf("the top-level permissions grant %s: write; write only in the job that needs it", k)
			}
		}
		return ""
	case string:
		if p == "read-all" {
			return ""
		}
	}
	return fmt.Sprintf("the top-level permissions are %v: want {} or read", perms)
}

// writeProblems: job writes only what allowed lists.
func writeProblems(wf ghWorkflow, job string, allowed ...string) (problems []string) {
	for k, v := range wf.Jobs[job].Permissions {
		if v == "write" && !slices.Contains(allowed, k) {
			problems = append(problems, fmt.Sprintf("job %s has %s: write, which it does not need", job, k))
		}
	}
	return problems
}

var (
	ciRunLine      = regexp.MustCompile(`(?m)^.*(?:^|\s)\.ci/run(?:\s|$).*$`)
	ciReleaseLine  = regexp.MustCompile(`(?m)^.*(?:^|\s)\.ci/release\s+dist(?:\s|$).*$`)
	ghReleaseLine  = regexp.MustCompile(`(?m)^.*\bgh release create\b.*$`)
	stepOutputRef  = regexp.MustCompile(`^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$`)
	releaseVersion = `VERSION="$GITHUB_REF_NAME"`
)

// releaseProblems: release.yml runs the project's CI (.ci/run, CI=true) in
// one job, and in another, which needs it, builds with .ci/release into
// dist, attests the binaries and publishes dist/* (SHA256SUMS with them)
// with gh release create.
func releaseProblems(wf ghWorkflow) (problems []string) {
	testJob, i := wf.findStep(runsLine(ciRunLine))
	if testJob == "" {
		return append(problems, "no job runs .ci/run")
	}
	line := ciRunLine.FindString(wf.Jobs[testJob].Steps[i].Run)
	if !strings.Contains(line, "CI=true") {
		problems = append(problems, fmt.Sprintf("job %s runs .ci/run without CI=true (which fails the tests that would skip): %q", testJob, line))
	}
	if strings.HasPrefix(strings.TrimSpace(line), "sudo") && !strings.Contains(line, `"PATH=$PATH"`) {
		problems = append(problems, fmt.Sprintf(`job %s runs .ci/run with sudo, which resets PATH, without passing it ("PATH=$PATH"): setup-go's Go would not be found: %q`, testJob, line))
	}
	problems = append(problems, writeProblems(wf, testJob)...)

	relJob, build := wf.findStep(runsLine(ciReleaseLine))
	if relJob == "" {
		return append(problems, "no job runs .ci/release dist")
	}
	if relJob == testJob {
		problems = append(problems, fmt.Sprintf("job %s both tests and releases: the release job should need the test job", relJob))
	}
	if line := ciReleaseLine.FindString(wf.Jobs[relJob].Steps[build].Run); !strings.Contains(line, releaseVersion) {
		problems = append(problems, fmt.Sprintf("job %s runs .ci/release without %s: the binaries would not say the tag's version: %q", relJob, releaseVersion, line))
	}
	var needs []string
	switch n := wf.Jobs[relJob].Needs.(type) {
	case string:
		needs = []string{n}
	case []any:
		for _, v := range n {
			needs = append(needs, fmt.Sprint(v))
		}
	}
	if !slices.Contains(needs, testJob) {
		problems = append(problems, fmt.Sprintf("job %s does not need the test job %s (needs: %q): it would publish untested builds", relJob, testJob, needs))
	}
	pubJob, publish := wf.findStep(runsLine(ghReleaseLine))
	if pubJob != relJob || publish < build {
		return append(problems, fmt.Sprintf("job %s does not run gh release create after .ci/release", relJob))
	}
	line = ghReleaseLine.FindString(wf.Jobs[relJob].Steps[publish].Run)
	for _, want := range []string{"dist/*", `"$GITHUB_REF_NAME"`, "--verify-tag"} {
		if !strings.Contains(line, want) {
			problems = append(problems, fmt.Sprintf("gh release create lacks %s (dist/* is the binaries and SHA256SUMS): %q", want, line))
		}
	}
	attested := false
	for _, s := range wf.Jobs[relJob].Steps[build:publish] {
		if (usesAction("actions/attest")(s) || usesAction("actions/attest-build-provenance")(s)) && s.With["subject-path"] == "dist/kith-*" {
			attested = true
		}
	}
	if !attested {
		problems = append(problems, fmt.Sprintf("job %s does not attest the build provenance of dist/kith-* between building and publishing", relJob))
	}
	if wf.Jobs[relJob].Permissions["contents"] != "write" {
		problems = append(problems, fmt.Sprintf("job %s lacks contents: write, which gh release create needs", relJob))
	}
	return append(problems, writeProblems(wf, relJob, "contents", "id-token", "attestations")...)
}

// containerProblems: container.yml builds contrib/Dockerfile for the three
// platforms and pushes it, tagged by docker/metadata-action, to ghcr.io as
// the repository's name lower-cased.
func containerProblems(wf ghWorkflow) (problems []string) {
	job, b := wf.findStep(usesAction("docker/build-push-action"))
	if job == "" {
		return append(problems, "no step uses docker/build-push-action")
	}
	steps := wf.Jobs[job].Steps
	with := steps[b].With
	for k, want := range map[string]string{"context": ".", "file": "contrib/Dockerfile", "push": "true"} {
		if with[k] != want {
			problems = append(problems, fmt.Sprintf("build-push-action's %s is %q, want %q", k, with[k], want))
		}
	}
	platforms := strings.FieldsFunc(with["platforms"], func(r rune) bool { return r == ',' || r == ' ' || r == '\n' })
	sort.Strings(platforms)
	if want := []string{"linux/amd64", "linux/arm/v7", "linux/arm64"}; !slices.Equal(platforms, want) {
		problems = append(problems, fmt.Sprintf("build-push-action builds for %q, want %q", platforms, want))
	}
	if !strings.Contains(with["build-args"], "VERSION=${{ github.ref_name }}") {
		problems = append(problems, fmt.Sprintf("build-push-action's build-args (%q) do not stamp the tag: VERSION=${{ github.ref_name }}", with["build-args"]))
	}
	// step resolves ${{ steps.ID.outputs.X }} to the step it names.
	step := func(ref string) (ghStep, bool) {
		m := stepOutputRef.FindStringSubmatch(strings.TrimSpace(ref))
		if m == nil {
			return ghStep{}, false
		}
		i := slices.IndexFunc(steps, func(s ghStep) bool { return s.ID == m[1] })
		if i < 0 {
			return ghStep{}, false
		}
		return steps[i], true
	}
	meta, ok := step(with["tags"])
	if !ok || !usesAction("docker/metadata-action")(meta) {
		problems = append(problems, fmt.Sprintf("build-push-action's tags (%q) are not a docker/metadata-action step's", with["tags"]))
	} else {
		for _, want := range []string{"type=semver,pattern={{version}}", "type=semver,pattern={{major}}.{{minor}}"} {
			if !strings.Contains(meta.With["tags"], want) {
				problems = append(problems, fmt.Sprintf("the image is not tagged %s", want))
			}
		}
		if !strings.Contains(meta.With["flavor"], "latest=auto") && !strings.Contains(meta.With["tags"], "latest") {
			problems = append(problems, "the image is not tagged latest")
		}
		image := meta.With["images"]
		if s, ok := step(image); ok {
			image = s.Run
		}
		if !strings.Contains(image, "ghcr.io/${GITHUB_REPOSITORY,,}") {
			problems = append(problems, fmt.Sprintf("the image is not ghcr.io/<owner>/<repository>, lower-cased: %q", image))
		}
	}
	l := slices.IndexFunc(steps, usesAction("docker/login-action"))
	if l < 0 || l > b || steps[l].With["registry"] != "ghcr.io" {
		problems = append(problems, fmt.Sprintf("job %s does not log in to ghcr.io before pushing", job))
	}
	if wf.Jobs[job].Permissions["packages"] != "write" {
		problems = append(problems, fmt.Sprintf("job %s lacks packages: write, which pushing to ghcr.io needs", job))
	}
	return append(problems, writeProblems(wf, job, "packages", "id-token", "attestations", "artifact-metadata")...)
}

func workflowProblems(t *testing.T, path string, raw []byte, specific func(ghWorkflow) []string) []string {
	t.Helper()
	wf, err := parseWorkflow(raw)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return append(commonWorkflowProblems(wf, raw), specific(wf)...)
}

func TestWorkflowRelease(t *testing.T) {
	raw, err := os.ReadFile(workflowFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range workflowProblems(t, workflowFiles[0], raw, releaseProblems) {
		t.Error(p)
	}
}

func TestWorkflowContainer(t *testing.T) {
	raw, err := os.ReadFile(workflowFiles[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range workflowProblems(t, workflowFiles[1], raw, containerProblems) {
		t.Error(p)
	}
}

// TestWorkflowChecksCatch breaks the workflows one way at a time, and wants
// the checks above to say so: none of them passes whatever the file says.
func TestWorkflowChecksCatch(t *testing.T) {
	checks := []func(ghWorkflow) []string{releaseProblems, containerProblems}
	for _, c := range []struct {
		file      int
		old, new  string // old: a regexp, its first match replaced
		complaint string
	}{
		{0, `tags: \["v\*"\]`, `tags: ["*"]`, "tags v*"},
		{1, `tags: \["v\*"\]`, `branches: [main]`, "tags v*"},
		{0, `@[0-9a-f]{40}`, "@v7", "not pinned"},
		{1, `@[0-9a-f]{40}`, "@main", "not pinned"},
		{1, ` # v\d[\d.]*\n`, "\n", "as a comment"},
		{0, `permissions: \{\}`, "permissions: write-all", "top-level permissions"},
		{0, `bash \.ci/run`, "bash .ci/test", "no job runs .ci/run"},
		{0, `CI=true `, "", "without CI=true"},
		{0, `"PATH=\$PATH" `, "", "resets PATH"},
		{0, `contents: read`, "contents: write", "job test has contents: write"},
		{0, `needs: test`, "needs: []", "does not need the test job"},
		{0, `\.ci/release dist`, ".ci/release out", "no job runs .ci/release dist"},
		{0, `VERSION="\$GITHUB_REF_NAME" bash`, "bash", "tag's version"},
		{0, `dist/\* `, "dist/kith-* ", "lacks dist/*"},
		{0, `--verify-tag`, "", "lacks --verify-tag"},
		{0, `gh release create "`, `gh release view "`, "does not run gh release create"},
		{0, `subject-path: dist/kith-\*`, "subject-path: dist/SHA256SUMS", "build provenance"},
		{0, `contents: write `, "contents: read ", "lacks contents: write"},
		{0, `attestations: write `, "actions: write\n      attestations: write ", "actions: write"},
		{1, `file: contrib/Dockerfile`, "file: Dockerfile", `"contrib/Dockerfile"`},
		{1, `context: \.`, "context: contrib", `want "."`},
		{1, `,linux/arm/v7`, "", "linux/arm/v7"},
		{1, `push: true`, "push: false", `want "true"`},
		{1, `VERSION=\$\{\{ github.ref_name \}\}`, "VERSION=dev", "stamp the tag"},
		{1, `type=semver,pattern=\{\{major\}\}\.\{\{minor\}\}`, "type=ref,event=tag", "{{major}}.{{minor}}"},
		{1, `flavor: latest=auto`, "flavor: latest=false", "tagged latest"},
		{1, `ghcr\.io/\$\{GITHUB_REPOSITORY,,\}`, "ghcr.io/${GITHUB_REPOSITORY}", "lower-cased"},
		{1, `registry: ghcr\.io`, "registry: docker.io", "log in to ghcr.io"},
		{1, `tags: \$\{\{ steps\.meta\.outputs\.tags \}\}`, "tags: ghcr.io/kith/kith:latest", "metadata-action"},
		{1, `packages: write `, "packages: read ", "lacks packages: write"},
	} {
		path := workflowFiles[c.file]
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(c.old)
		loc := re.FindIndex(raw)
		if loc == nil {
			t.Errorf("%s no longer has %s: this breakage (want %q) needs updating", path, c.old, c.complaint)
			continue
		}
		broken := slices.Concat(raw[:loc[0]], re.ReplaceAll(raw[loc[0]:loc[1]], []byte(c.new)), raw[loc[1]:])
		wf, err := parseWorkflow(broken)
		if err != nil {
			t.Errorf("%s with %s -> %q does not parse: %v", path, c.old, c.new, err)
			continue
		}
		problems := append(commonWorkflowProblems(wf, broken), checks[c.file](wf)...)
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, c.complaint) }) {
			t.Errorf("%s with %s -> %q: no complaint saying %q, only %q", path, c.old, c.new, c.complaint, problems)
		}
	}
}

// TestWorkflowActionlint lints both workflows with actionlint (and, through
// it, their run: scripts with shellcheck, when that is on PATH too). Without
// actionlint the test skips, except in CI (CI=true), whose .ci/run installs it.
func TestWorkflowActionlint(t *testing.T) {
	bin, err := exec.LookPath("actionlint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no actionlint on PATH, and CI=true: .ci/run installs it (github.com/rhysd/actionlint/cmd/actionlint@v1.7.12)")
		}
		t.Skip("no actionlint on PATH: the workflows were parsed and checked, not linted " +
			"(go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 to lint them)")
	}
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Log("no shellcheck on PATH: actionlint does not check the run: scripts")
	}
	out, err := exec.Command(bin, append([]string{"-no-color", "-oneline"}, workflowFiles...)...).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}
