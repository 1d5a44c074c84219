// Package directive defines an analyzer that reports mistakes in //idemlint: directives.
//
// # Analyzer directive
//
// directive: report //idemlint: directives that do not do what they seem to
//
// A directive that suppresses nothing should not look as if it did. The analyzer reports:
//
//   - a directive word idemlint does not know (//idemlint:ingore: "did you mean
//     //idemlint:ignore?");
//   - an //idemlint:ignore directive without a reason: it suppresses nothing, so that every
//     exception says why it is one;
//   - a name that is not one of idemlint's checks (keyinlop: "did you mean keyinloop?");
//   - the spaced form "// idemlint:ignore", which, like any Go directive written with a space
//     after the slashes, is an ordinary comment.
//
// These are reported under their own rule, directive, whichever checks run: choosing checks
// with -NAME does not hide them; -directive=false does. Generated files are not reported.
//
// The only directive is
//
//	//idemlint:ignore NAME[,NAME...] reason
//
// on the line of a finding or the line above it, or in a function's doc comment for the whole
// function; NAME is a check or "all".
package directive
