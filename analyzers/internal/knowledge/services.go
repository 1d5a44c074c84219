package knowledge

import "strings"

// Services: how a person names the service an SDK's package talks to, for the map of a
// module's dependencies.

// Service names the service that the SDK package pkg talks to ("AWS s3" for
// github.com/aws/aws-sdk-go-v2/service/s3, "Cloud Storage"); "" when pkg is not a known SDK's.
func Service(pkg string) string {
	for _, s := range services {
		rest, ok := strings.CutPrefix(pkg, s.prefix)
		if !ok || !strings.HasSuffix(s.prefix, "/") && rest != "" && !strings.HasPrefix(rest, "/") {
			continue
		}
		if !strings.Contains(s.name, "%s") {
			return s.name
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		if first == "" {
			continue
		}
		return strings.Replace(s.name, "%s", first, 1)
	}
	return ""
}

// services are matched in order: a prefix ending in "/" names a family of packages, whose
// first element after it replaces %s; any other prefix is a package and those below it.
var services = []struct{ prefix, name string }{
	{"github.com/aws/aws-sdk-go-v2/service/", "AWS %s"},
	{"github.com/aws/aws-sdk-go/service/", "AWS %s"},
	{"cloud.google.com/go/storage", "Cloud Storage"},
	{"cloud.google.com/go/pubsub", "Cloud Pub/Sub"},
	{"cloud.google.com/go/", "Google Cloud %s"},
	{"github.com/minio/minio-go", "S3 via minio-go"},
	{"github.com/Azure/azure-sdk-for-go/sdk/storage/", "Azure Storage (%s)"},
	{"github.com/Azure/azure-sdk-for-go/sdk/", "Azure %s"},
}
