package knowledge

import (
	"go/types"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// An SDKConfig is an SDK's shared configuration: every service client is made from one
// (s3.NewFromConfig(cfg)) and sends through the HTTP client it holds. Loaded without one, it
// holds the SDK's default, which has no overall timeout: one line to change for all clients.
type SDKConfig struct {
	Pkg, Name string // the configuration type
	Display   string // as messages name it: "aws.Config"
	// Load loads a configuration; its options are the functions of OptionPkg.
	Load      flow.FuncID
	OptionPkg string
	// HTTPOption is the option that gives the configuration an HTTP client, HTTPField the
	// configuration's field that holds it.
	HTTPOption string
	HTTPField  string
}

var sdkConfigs = []*SDKConfig{{
	Pkg: "github.com/aws/aws-sdk-go-v2/aws", Name: "Config", Display: "aws.Config",
	Load:      flow.FuncID{Pkg: "github.com/aws/aws-sdk-go-v2/config", Name: "LoadDefaultConfig"},
	OptionPkg: "github.com/aws/aws-sdk-go-v2/config", HTTPOption: "WithHTTPClient", HTTPField: "HTTPClient",
}}

// ConfigOf returns the SDK configuration t is, or points to, or nil.
func ConfigOf(t types.Type) *SDKConfig {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	for _, c := range sdkConfigs {
		if typeis.Named(t, c.Pkg, c.Name) {
			return c
		}
	}
	return nil
}

// Loads reports whether fn loads a configuration of this kind.
func (c *SDKConfig) Loads(fn *types.Func) bool { return fn != nil && flow.ID(fn) == c.Load }

// Option says what fn, a function whose result is passed to Load, does to the HTTP client:
// SetsClient for HTTPOption, Other for the other options of the package, Unknown otherwise.
func (c *SDKConfig) Option(fn *types.Func) OptionKind {
	switch {
	case fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != c.OptionPkg:
		return Unknown
	case fn.Name() == c.HTTPOption:
		return SetsClient
	}
	return Other
}

// OptionKind says what a configuration's load option does to its HTTP client.
type OptionKind uint8

const (
	Unknown    OptionKind = iota // not an option of the SDK's: it may set one
	SetsClient                   // gives the configuration an HTTP client
	Other                        // another option of the SDK's
)
