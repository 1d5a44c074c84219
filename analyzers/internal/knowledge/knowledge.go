// Package knowledge holds what idemlint knows about APIs as data, each fact tied to the
// package path that defines the API: never a word matched against the names in user code.
// The models read it; one file per topic.
package knowledge
