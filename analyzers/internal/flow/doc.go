// Package flow holds the SSA value walks that idemlint's models share: where a value comes
// from (Backward, through stores to fields and variables with Stores), the calls of a
// function, call sites split into receiver and arguments, constants, and how functions are
// identified (Callee, ID) and named in messages (Name).
package flow
