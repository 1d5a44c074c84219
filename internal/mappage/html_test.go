package mappage

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const docs = "https://github.com/idemlint/idemlint/blob/main/docs/"

// queueName needs escaping everywhere it appears.
const queueName = `SQS "orders" <prod> & co`

// sampleMap has, out of order: a dependency with two nested layers (3 × 3 = 9) and four paths
// (one behind the <details>), an unbounded one under a framework redelivery, one with no layer
// and one whose cap is known only at run time.
func sampleMap() *Map {
	charge := Path{
		Entry:  Func{Name: "example.com/shop.Checkout", Kind: "HTTP handler", Posn: "shop/checkout.go:20:6"},
		Steps:  []Func{{Name: "example.com/shop.Checkout", Kind: "HTTP handler", Posn: "shop/checkout.go:20:6"}, {Name: "example.com/shop.(*Client).charge", Posn: "shop/client.go:41:18"}},
		Call:   Site{Name: "http.Client.Do", Posn: "shop/client.go:57:23"},
		Method: "POST",
		Key:    "none",
		Layers: []Layer{
			{Kind: "library", Scope: "retry callback", Name: "retry.Do", Posn: "shop/checkout.go:31:2", Attempts: "3", N: 3, Wait: "jittered", Deadline: "context"},
			{Kind: "hand loop", Scope: "retry loop", Name: "the retry loop", Posn: "shop/client.go:49:2", Attempts: "3", N: 3, Wait: "fixed", Deadline: "none"},
		},
		Worst: Worst{Calls: "9", N: 9, Timeout: "none"},
		Findings: []Finding{
			{Check: "nestedretry", Posn: "shop/client.go:49:2", Message: "the retry loop runs inside retry.Do: 9 calls per request", URL: docs + "nestedretry.md"},
			{Check: "unkeyedretry", Posn: "shop/client.go:57:23", Message: "POST retried without an idempotency key", URL: docs + "unkeyedretry.md"},
			{Check: "nojitter", Posn: "shop/client.go:52:3", Message: "the retry loop waits a fixed time <1s> & does not jitter", URL: docs + "nojitter.md"},
		},
	}
	refund := Path{
		Entry:  Func{Name: "example.com/shop.Refund", Kind: "exported", Posn: "shop/refund.go:12:6"},
		Steps:  []Func{{Name: "example.com/shop.Refund", Kind: "exported", Posn: "shop/refund.go:12:6"}, {Name: "example.com/shop.(*Client).refund", Posn: "shop/client.go:80:18"}},
		Call:   Site{Name: "http.Client.Do", Posn: "shop/client.go:92:23"},
		Method: "POST",
		Key:    "sent",
		Layers: []Layer{{Kind: "hand loop", Scope: "retry loop", Name: "the retry loop", Posn: "shop/client.go:85:2", Attempts: "3", N: 3, Wait: "backoff", Deadline: "context"}},
		Worst:  Worst{Calls: "3", N: 3, Timeout: "http.Client.Timeout", Time: "19s"},
	}
	get := func(entry string) Path {
		return Path{
			Entry:  Func{Name: "example.com/shop." + entry, Kind: "HTTP handler", Posn: "shop/status.go:9:6"},
			Call:   Site{Name: "http.Client.Do", Posn: "shop/client.go:110:23"},
			Method: "GET",
			Worst:  Worst{Calls: "1", N: 1, Timeout: "http.Client.Timeout"},
		}
	}
	payments := Dependency{
		Name: "payments.example.com", Kind: "HTTP", Calls: 3,
		Worst: Worst{Calls: "9", N: 9, Timeout: "none", Time: "unbounded"},
		Paths: []Path{get("Status"), refund, charge, get("Balance")},
	}
	queue := Dependency{
		Name: queueName, Kind: "SDK", Calls: 1,
		Worst: Worst{Calls: "unbounded", Timeout: "caller's context"},
		Paths: []Path{{
			Entry: Func{Name: "example.com/worker.Handle", Kind: "message handler", Posn: "worker/handle.go:15:6"},
			Steps: []Func{{Name: "example.com/worker.Handle", Kind: "message handler", Posn: "worker/handle.go:15:6"}, {Name: "example.com/worker.publish", Posn: "worker/publish.go:8:6"}},
			Call:  Site{Name: "sqs.Client.SendMessage", Posn: "worker/publish.go:14:20"},
			Layers: []Layer{
				{Kind: "framework redelivery", Scope: "message handler", Name: "the SQS handler loop", Posn: "worker/handle.go:15:6", Attempts: "unbounded", Wait: "unknown", Deadline: "none", Framework: "SQS"},
				{Kind: "self-retrying client", Scope: "client", Name: "the AWS SDK retryer", Posn: "worker/publish.go:14:20", Attempts: "3", N: 3, Wait: "jittered", Deadline: "none"},
			},
			Worst: Worst{Calls: "unbounded", Timeout: "caller's context"},
			Findings: []Finding{
				{Check: "unkeyedretry", Posn: "worker/publish.go:14:20", Message: `redelivered message <script>alert("x")</script> sent again without a key`, URL: docs + "unkeyedretry.md"},
			},
		}},
	}
	db := Dependency{
		Name: "PostgreSQL via database/sql", Kind: "SQL", Calls: 1,
		Worst: Worst{Calls: "1", N: 1, Timeout: "context.WithTimeout"},
		Paths: []Path{{
			Entry: Func{Name: "example.com/shop.Report", Kind: "main", Posn: "cmd/report/main.go:10:6"},
			Steps: []Func{{Name: "example.com/shop.Report", Kind: "main", Posn: "cmd/report/main.go:10:6"}, {Name: "example.com/shop.totals", Posn: "shop/report.go:22:6"}},
			Call:  Site{Name: "sql.DB.QueryContext", Posn: "shop/report.go:30:19"},
			Worst: Worst{Calls: "1", N: 1, Timeout: "context.WithTimeout"},
		}},
	}
	grpc := Dependency{
		Name: "gRPC payments.v1.Payments", Kind: "gRPC", Calls: 1,
		Worst: Worst{Calls: "unknown", Timeout: "none"},
		Paths: []Path{{
			Entry:  Func{Name: "example.com/shop.Capture", Kind: "exported", Posn: "shop/capture.go:8:6"},
			Call:   Site{Name: "payments.v1.PaymentsClient.Capture", Posn: "shop/capture.go:19:24"},
			Layers: []Layer{{Kind: "library", Scope: "retry callback", Name: "backoff.Retry", Posn: "shop/capture.go:14:2", Attempts: "variable", Wait: "jittered", Deadline: "elapsed"}},
			Worst:  Worst{Calls: "unknown", Timeout: "none"},
		}},
	}
	return &Map{Packages: []string{"./..."}, Dependencies: []Dependency{db, payments, grpc, queue}}
}

// sampleOrder is the order of sampleMap's dependencies on the page, worst first.
var sampleOrder = []string{queueName, "payments.example.com", "gRPC payments.v1.Payments", "PostgreSQL via database/sql"}

// manyMap has n dependencies of every kind of worst case.
func manyMap(n int) *Map {
	m := &Map{Packages: []string{"./cmd/...", "./internal/..."}}
	base := sampleMap().Dependencies
	for i := range n {
		d := base[i%len(base)]
		d.Name = fmt.Sprintf("%s #%02d", d.Name, i+1)
		if d.Worst.N > 1 {
			d.Worst.N += i
			d.Worst.Calls = fmt.Sprint(d.Worst.N)
		}
		m.Dependencies = append(m.Dependencies, d)
	}
	return m
}

func render(t *testing.T, m *Map) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, Write(&b, m))
	return b.String()
}

// The page's DOM, read back with regular expressions: the page writes each of these tags on one
// line, with its class first, and so does Chromium's --dump-dom.

var (
	attrRE    = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
	tagRE     = regexp.MustCompile(`<[^>]+>`)
	worstRE   = regexp.MustCompile(`(?s)<p class="worst">(.*?)</p>`)
	sectionRE = regexp.MustCompile(`<section class="dep"[^>]*>`)
)

// element is a tag's attributes, unescaped, and where the tag is.
type element struct {
	attrs map[string]string
	at    int
}

func elements(page, class string) []element {
	re := regexp.MustCompile(`<[a-z]+ class="` + regexp.QuoteMeta(class) + `[ "][^>]*>`)
	var es []element
	for _, loc := range re.FindAllStringIndex(page, -1) {
		e := element{attrs: map[string]string{}, at: loc[0]}
		for _, a := range attrRE.FindAllStringSubmatch(page[loc[0]:loc[1]], -1) {
			e.attrs[a[1]] = html.UnescapeString(a[2])
		}
		es = append(es, e)
	}
	return es
}

// sectionTexts returns each dependency's part of the page.
func sectionTexts(page string) []string {
	locs := sectionRE.FindAllStringIndex(page, -1)
	var out []string
	for i, loc := range locs {
		end := len(page)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out = append(out, page[loc[0]:end])
	}
	return out
}

// worstText is the text of a section's element of class "worst".
func worstText(section string) string {
	m := worstRE.FindStringSubmatch(section)
	if m == nil {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(tagRE.ReplaceAllString(m[1], " "))), " ")
}

// divDepth is the number of <div>s open at the end of s.
func divDepth(s string) int {
	return strings.Count(s, "<div") - strings.Count(s, "</div>")
}

func names(es []element, attr string) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.attrs[attr])
	}
	return out
}

func TestWriteOrderAndDataAttributes(t *testing.T) {
	page := render(t, sampleMap())
	deps := elements(page, "dep")
	assert.Equal(t, sampleOrder, names(deps, "data-name"), "worst first: unbounded, then the highest number, unknown, and a single call last")
	assert.Equal(t, []string{"SDK", "HTTP", "gRPC", "SQL"}, names(deps, "data-kind"))
	assert.Equal(t, []string{"unbounded", "9", "unknown", "1"}, names(deps, "data-worst"))

	texts := sectionTexts(page)
	require.Len(t, texts, 4)
	want := []string{"unbounded calls per request", "9 calls per request", "unknown calls per request", "1 call per request"}
	for i, s := range texts {
		assert.Equal(t, want[i], worstText(s), deps[i].attrs["data-name"])
		assert.Contains(t, worstText(s), deps[i].attrs["data-worst"])
	}

	// payments: its paths worst first, the fourth behind the <details>.
	payments := texts[1]
	paths := elements(payments, "path")
	assert.Equal(t, []string{"example.com/shop.Checkout", "example.com/shop.Refund", "example.com/shop.Balance", "example.com/shop.Status"}, names(paths, "data-entry"))
	assert.Equal(t, []string{"9", "3", "1", "1"}, names(paths, "data-worst"))
	details := strings.Index(payments, "<details")
	require.Positive(t, details)
	assert.Less(t, paths[2].at, details)
	assert.Greater(t, paths[3].at, details)
	assert.Contains(t, payments, "<summary>1 more path</summary>")

	// The charge path: its layers outermost first, nested, around the call.
	charge := payments[paths[0].at:paths[1].at]
	layers := elements(charge, "layer")
	assert.Equal(t, []string{"3", "3"}, names(layers, "data-attempts"))
	assert.Equal(t, []string{"library", "hand loop"}, names(layers, "data-kind"))
	call := strings.Index(charge, `<div class="call">`)
	assert.Less(t, layers[1].at, call)
	assert.Equal(t, 4, divDepth(charge[:call]), "the call is in the path, the nest and both layers")
	assert.Equal(t, 0, divDepth(charge), "the path's boxes are closed")
	assert.Contains(t, charge, "3 × 3 = 9 calls")
	assert.Contains(t, charge, `<span class="chip warn">fixed wait, no jitter</span>`)
	assert.Contains(t, charge, `>no key</span>`)
	assert.Contains(t, charge, `<span class="chip warn">timeout: none</span>`)
	assert.Contains(t, charge, `<span class="step" title="example.com/shop.Checkout at shop/checkout.go:20:6">shop.Checkout</span> <span class="arrow">→</span> <span class="step" title="example.com/shop.(*Client).charge at shop/client.go:41:18">charge</span> <span class="arrow">→</span> <span class="step" title="http.Client.Do at shop/client.go:57:23">http.Client.Do</span>`)
	for _, c := range []string{"nestedretry", "unkeyedretry", "nojitter"} {
		assert.Contains(t, charge, `<a class="check" href="`+docs+c+`.md">`+c+`</a>`)
	}
	refund := payments[paths[1].at:paths[2].at]
	assert.Contains(t, refund, `<span class="chip good">key sent</span>`)
	assert.Contains(t, refund, `<span class="chip warn">backoff, no jitter</span>`)
	assert.Contains(t, texts[1], `timeout per attempt: <b class="none">none</b>`)

	// The queue: an unbounded framework redelivery around a self-retrying client.
	queue := elements(texts[0], "layer")
	assert.Equal(t, []string{"unbounded", "3"}, names(queue, "data-attempts"))
	assert.Equal(t, []string{"framework redelivery", "self-retrying client"}, names(queue, "data-kind"))
	assert.Contains(t, texts[0], `<div class="layer k-framework unbounded"`)
	assert.Contains(t, texts[0], `<span class="lkind">framework redelivery (SQS)</span><span class="lname" title="message handler">the SQS handler loop</span>`)
	assert.Contains(t, texts[0], `<span class="chip bad">unbounded attempts</span>`)
	assert.Contains(t, texts[0], "∞ × 3 = unbounded calls")

	// The database: no layer.
	assert.Empty(t, elements(texts[3], "layer"))
	assert.Contains(t, texts[3], "1 call, no retry layer")
	assert.Contains(t, texts[3], `<span class="kind">SQL</span>1 call site · 1 path`)
}

func TestWriteEscapes(t *testing.T) {
	page := render(t, sampleMap())
	assert.NotContains(t, page, "<prod>")
	assert.NotContains(t, page, `"orders"`)
	assert.NotContains(t, page, "<script")
	assert.NotContains(t, page, "<1s>")
	assert.Contains(t, page, "<h2>SQS &#34;orders&#34; &lt;prod&gt; &amp; co</h2>")
	assert.Contains(t, page, `data-name="SQS &#34;orders&#34; &lt;prod&gt; &amp; co"`)
	assert.Contains(t, page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;")
	assert.Equal(t, queueName, elements(page, "dep")[0].attrs["data-name"])

	// A finding's URL is a link only if it is one.
	m := sampleMap()
	m.Dependencies[1].Paths[2].Findings[0].URL = "javascript:alert(1)"
	assert.NotContains(t, render(t, m), "javascript:")
}

// The page must open from a file with no network: every reference is in the page, but for the
// findings' links to their documentation.
func TestWriteSelfContained(t *testing.T) {
	page := render(t, sampleMap())
	assert.NotContains(t, page, "<link")
	assert.NotContains(t, page, "<script")
	assert.NotContains(t, page, "<img")
	assert.NotContains(t, page, "<iframe")
	assert.NotContains(t, page, "@import")
	assert.NotRegexp(t, `url\((?:[^#)]|#[^a-z])`, page, "CSS refers only to the page's own ids")

	urls := map[string]bool{}
	for _, d := range sampleMap().Dependencies {
		for _, p := range d.Paths {
			for _, f := range p.Findings {
				urls[f.URL] = true
			}
		}
	}
	links := regexp.MustCompile(`<([a-z]+)\b[^>]*\s(src|href|xlink:href|srcset|action|data)="([^"]*)"`)
	n := 0
	for _, m := range links.FindAllStringSubmatch(page, -1) {
		tag, attr, ref := m[1], m[2], html.UnescapeString(m[3])
		if strings.HasPrefix(ref, "#") {
			continue
		}
		assert.True(t, tag == "a" && attr == "href" && urls[ref], "a reference out of the page: <%s %s=%q>", tag, attr, ref)
		n++
	}
	assert.Equal(t, 4, n, "the findings' links")
	for _, ref := range regexp.MustCompile(`https?://[^\s"<]*`).FindAllString(page, -1) {
		assert.True(t, urls[ref], "an address that is not a finding's: %s", ref)
	}
}

func TestWriteEmpty(t *testing.T) {
	for _, m := range []*Map{nil, {}, {Packages: []string{"./..."}}} {
		page := render(t, m)
		assert.Contains(t, page, "No outbound dependency was found")
		assert.Contains(t, page, "0 dependencies · 0 paths")
		assert.NotContains(t, page, `<section`)
		assert.NotContains(t, page, `<svg class="chart"`)
	}
}

func TestWriteMany(t *testing.T) {
	page := render(t, manyMap(200))
	deps := elements(page, "dep")
	require.Len(t, deps, 200)
	assert.Equal(t, "unbounded", deps[0].attrs["data-worst"])
	assert.Equal(t, "1", deps[199].attrs["data-worst"], "a single call last, after unknown counts")
	chart := page[strings.Index(page, `<svg class="chart"`):]
	chart = chart[:strings.Index(chart, "</svg>")]
	assert.Equal(t, chartRows, strings.Count(chart, "<a href="), "the chart shows the worst only")
	assert.Contains(t, page, "the 15 worst of 200")
	for _, s := range sectionTexts(page) {
		assert.LessOrEqual(t, strings.Count(s[:max(strings.Index(s, "<details"), 0)], `<div class="path"`), shownPaths)
	}
}

func TestScale(t *testing.T) {
	assert.Equal(t, []int{1, 10}, newScale(nil).ticks)
	s := newScale([]Dependency{{Worst: Worst{Calls: "9", N: 9}}, {Worst: Worst{Calls: "150", N: 150}}})
	assert.Equal(t, []int{1, 10, 100, 1000}, s.ticks)
	assert.Less(t, s.x(9, 200), s.x(150, 200))
	assert.Less(t, s.x(150, 200), s.bar(Worst{Calls: "unbounded"}, 200).w, "unbounded is the longest bar")
	assert.Equal(t, 5.0, s.x(1, 200))
	huge := newScale([]Dependency{{Worst: Worst{N: math.MaxInt}}})
	assert.LessOrEqual(t, huge.x(math.MaxInt, 200), 160.0)
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	assert.ErrorContains(t, Write(failingWriter{}, sampleMap()), "disk full")
}

func TestTruncate(t *testing.T) {
	assert.Equal(t, "short", truncate("short", 10))
	assert.Equal(t, "abcd…6789", truncate("abcdefghij0123456789", 9))
	assert.Equal(t, "αβ…χψω", truncate("αβγδεζηθικλμνξοπρστυφχψω", 6))
}

func TestShortFunc(t *testing.T) {
	for name, want := range map[string]string{
		"example.com/shop.(*Client).charge": "charge",
		"shop.(Client).charge":              "charge",
		"shop.Checkout":                     "Checkout",
		"shop.Checkout.func1":               "Checkout.func1",
		"example.com/a/b.F":                 "F",
		"main":                              "main",
	} {
		assert.Equal(t, want, shortFunc(name), name)
	}
	assert.Equal(t, "shop.(*Client).charge", pkgFunc("example.com/shop.(*Client).charge"))
	assert.Equal(t, "shop.F[example.com/x.T]", pkgFunc("example.com/shop.F[example.com/x.T]"))
}

// A dependency reached by more paths than the page shows lists the worst, and says how many it
// leaves to the JSON.
func TestWriteLeavesPathsToJSON(t *testing.T) {
	d := Dependency{Name: "SQL database via database/sql", Kind: "SQL", Calls: 1, Worst: Worst{Calls: "1", N: 1, Timeout: "none"}}
	for i := range pagePaths + 40 {
		d.Paths = append(d.Paths, Path{Entry: Func{Name: fmt.Sprintf("store.F%03d", i), Kind: "exported"}, Call: Site{Name: "sql.DB.Query", Posn: "store/store.go:1:1"}, Worst: d.Worst})
	}
	page := render(t, &Map{Dependencies: []Dependency{d}})
	assert.Len(t, elements(page, "path"), pagePaths)
	assert.True(t, strings.Contains(page, "40 more paths, of the same or a smaller worst case: idemlint map -format=json lists them all"), "the note on the paths left off")
}

// The longest wait: a dependency's in its head (warm when unbounded), a path's when known.
func TestWriteLongestWait(t *testing.T) {
	page := render(t, sampleMap())
	texts := sectionTexts(page)
	require.Len(t, texts, 4)
	assert.True(t, strings.Contains(texts[1], `longest wait: <b class="time none">unbounded</b>`), "payments: unbounded, warm")
	assert.True(t, strings.Contains(texts[1], `3 calls<span class="ptime">, at most 19s</span>`), "refund's path: at most 19s")
	assert.True(t, strings.Contains(texts[3], `longest wait: <b class="time">unknown</b>`), "the database: not known")
}

// A closure kept and run later says so in the route.
func TestWriteRunsLater(t *testing.T) {
	p := Path{
		Entry: Func{Name: "kv.NewPool", Kind: "exported"},
		Steps: []Func{{Name: "kv.NewPool", Kind: "exported"}, {Name: "kv.NewPool$1", Kind: "runs later"}},
		Call:  Site{Name: "net.Dialer.DialContext"},
		Worst: Worst{Calls: "1", N: 1, Timeout: "net.Dialer.Timeout", Time: "unknown"},
	}
	page := render(t, &Map{Dependencies: []Dependency{{Name: "kv", Kind: "dial", Calls: 1, Worst: p.Worst, Paths: []Path{p}}}})
	assert.True(t, strings.Contains(page, `title="kv.NewPool$1, kept and run later">NewPool$1 (later)</span>`), "the later step is marked")
}
