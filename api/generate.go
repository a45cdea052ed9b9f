package api

//go:generate go tool oapi-codegen -config oapi-codegen.yaml openapi.json
//go:generate go run ./internal/stubgen api.gen.go unimplemented.gen.go
