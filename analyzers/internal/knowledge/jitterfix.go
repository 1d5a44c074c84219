package knowledge

import "strings"

// A JitterFix says how nojitter's suggested fix turns jitter on where one setting of a library
// left it off. Text is the code it writes, where {pkg} stands for the name the file gives the
// library's package and {value} for the setting's own code (the option's argument, the stored
// value, or the call, by Kind).
type JitterFix struct {
	Kind FixKind
	Text string
	// Needs is a function of the library the fix calls that not every version has: no fix
	// where the imported version lacks it.
	Needs string
	// In is, for FixAfter, the library function whose call holds the setting's
	// (roko.WithStrategy(roko.Constant(d))).
	In string
	// LibraryValue, for FixValue: only where the stored value is a function of the library
	// (its own default backoff), not one the program wrote.
	LibraryValue bool
}

// FixKind says where a JitterFix writes.
type FixKind uint8

const (
	FixArg   FixKind = iota + 1 // replaces the one argument of the option call
	FixValue                    // replaces the value stored into the field
	FixField                    // adds Text as a field to the composite literal
	FixWrap                     // replaces the call with Text
	FixAfter                    // adds ", " + Text after the call of In that holds the setting's call
)

// Code returns the fix's text for the package qualifier q ("" where the file needs none) and
// the setting's own code.
func (f *JitterFix) Code(q, value string) string {
	pkg := ""
	if q != "" {
		pkg = q + "."
	}
	return strings.NewReplacer("{pkg}.", pkg, "{value}", value).Replace(f.Text)
}
