package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// validate checks a JSON document against a JSON Schema (draft-04, the keywords the SARIF
// schema uses: $ref, type, properties, additionalProperties, required, items, minItems,
// uniqueItems, enum, minimum, maximum, pattern, format uri/uri-reference, anyOf, oneOf) and
// returns what it violates.
func validate(t *testing.T, schemaFile string, doc []byte) []string {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var schema, v any
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	s := &schemaValidator{root: schema.(map[string]any)}
	s.check("#", schema.(map[string]any), v)
	return s.errs
}

type schemaValidator struct {
	root map[string]any
	errs []string
}

func (s *schemaValidator) fail(path, format string, args ...any) {
	s.errs = append(s.errs, path+": "+fmt.Sprintf(format, args...))
}

// check validates v at path against schema sch.
func (s *schemaValidator) check(path string, sch map[string]any, v any) {
	if ref, ok := sch["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/definitions/")
		def, _ := s.root["definitions"].(map[string]any)[name].(map[string]any)
		if !ok || def == nil {
			s.fail(path, "unresolved $ref %s", ref)
			return
		}
		s.check(path, def, v)
		return
	}
	if typ, ok := sch["type"]; ok && !s.hasType(typ, v) {
		s.fail(path, "want type %v, have %T", typ, v)
		return
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, v) }) {
		s.fail(path, "%v not in %v", v, enum)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts, ok := sch[kw].([]any)
		if !ok {
			continue
		}
		n := 0
		for _, alt := range alts {
			sub := &schemaValidator{root: s.root}
			sub.check(path, alt.(map[string]any), v)
			if len(sub.errs) == 0 {
				n++
			}
		}
		if n == 0 || kw == "oneOf" && n > 1 {
			s.fail(path, "%s: %d alternatives match", kw, n)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		for _, r := range asSlice(sch["required"]) {
			if _, ok := v[r.(string)]; !ok {
				s.fail(path, "missing required %q", r)
			}
		}
		for k, pv := range v {
			if ps, ok := props[k].(map[string]any); ok {
				s.check(path+"/"+k, ps, pv)
				continue
			}
			switch ap := sch["additionalProperties"].(type) {
			case bool:
				if !ap {
					s.fail(path, "property %q not allowed", k)
				}
			case map[string]any:
				s.check(path+"/"+k, ap, pv)
			}
		}
	case []any:
		if min, ok := sch["minItems"].(float64); ok && float64(len(v)) < min {
			s.fail(path, "%d items, want at least %v", len(v), min)
		}
		if sch["uniqueItems"] == true {
			for i := range v {
				for j := i + 1; j < len(v); j++ {
					if reflect.DeepEqual(v[i], v[j]) {
						s.fail(path, "items %d and %d are equal", i, j)
					}
				}
			}
		}
		if items, ok := sch["items"].(map[string]any); ok {
			for i, e := range v {
				s.check(fmt.Sprintf("%s/%d", path, i), items, e)
			}
		}
	case float64:
		if min, ok := sch["minimum"].(float64); ok && v < min {
			s.fail(path, "%v below minimum %v", v, min)
		}
		if max, ok := sch["maximum"].(float64); ok && v > max {
			s.fail(path, "%v above maximum %v", v, max)
		}
	case string:
		if p, ok := sch["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			s.fail(path, "%q does not match %s", v, p)
		}
		switch sch["format"] {
		case "uri":
			if u, err := url.Parse(v); err != nil || u.Scheme == "" {
				s.fail(path, "%q is not an absolute URI", v)
			}
		case "uri-reference":
			if _, err := url.Parse(v); err != nil {
				s.fail(path, "%q is not a URI reference", v)
			}
		}
	}
}

func (s *schemaValidator) hasType(typ, v any) bool {
	for _, t := range asSlice(typ) {
		switch t {
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "number":
			if _, ok := v.(float64); ok {
				return true
			}
		case "integer":
			if f, ok := v.(float64); ok && f == math.Trunc(f) {
				return true
			}
		case "null":
			if v == nil {
				return true
			}
		}
	}
	return false
}

func asSlice(v any) []any {
	switch v := v.(type) {
	case []any:
		return v
	case nil:
		return nil
	}
	return []any{v}
}

// The validator must reject what the schema forbids, or a passing SARIF test means nothing.
func TestValidatorRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"no runs":            `{"version": "2.1.0"}`,
		"wrong version":      `{"version": "2.0.0", "runs": []}`,
		"unknown property":   `{"version": "2.1.0", "runs": [], "extra": 1}`,
		"result without msg": `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"}]}]}`,
		"negative line":      `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go"}, "region": {"startLine": 0}}}]}]}]}`,
		"bad level":          `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
	} {
		if errs := validate(t, "testdata/sarif-schema-2.1.0.json", []byte(doc)); len(errs) == 0 {
			t.Errorf("%s: accepted %s", name, doc)
		}
	}
	ok := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "warning"}]}]}`
	if errs := validate(t, "testdata/sarif-schema-2.1.0.json", []byte(ok)); len(errs) > 0 {
		t.Errorf("rejected a valid log: %v", errs)
	}
}
