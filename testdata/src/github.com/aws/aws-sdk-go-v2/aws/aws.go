// Package aws is a stub of github.com/aws/aws-sdk-go-v2/aws.
package aws

type Config struct{}

func String(v string) *string { return &v }
func Int32(v int32) *int32    { return &v }

func ToString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
