package app

import "github.com/crier/crier/storage"

// UploadPart is one uploaded part of a multipart upload, as the client lists it on completion;
// callers name parts in app's terms and app hands them to storage.
type UploadPart struct {
	Number int
	ETag   string
}

func storageParts(parts []UploadPart) []storage.Part {
	out := make([]storage.Part, len(parts))
	for i, p := range parts {
		out[i] = storage.Part{Number: p.Number, ETag: p.ETag}
	}
	return out
}
