// Package pluginapi declares what an output plugin implements: its methods take no context.
package pluginapi

// An Output sends metrics somewhere.
type Output interface {
	Connect() error
	Write(lines []string) error
	Close() error
}
