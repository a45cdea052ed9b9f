package api

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// decodeJSONBody is openapi3filter.JSONBodyDecoder that also rejects data after the JSON value.
func decodeJSONBody(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var value any
	if err := dec.Decode(&value); err != nil {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: errTrailingJSON}
	}
	if err := checkJSONLimits(value); err != nil {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: err}
	}
	return value, nil
}

// decodeMultipartBody decodes a multipart/form-data body into the object its schema describes.
// Unlike openapi3filter.MultipartBodyDecoder it does not copy file parts (format: binary, or parts
// with a file name that the schema does not declare) into strings: it reads past them and puts a
// one-byte placeholder in their place, "" for an empty file: size limits on files are the
// handler's, minLength/maxLength on a binary part mean nothing here. Undeclared parts are kept,
// so that additionalProperties: false reports them as unrecognized keys, and text fields that do
// not parse as their type stay strings, so that they are reported as invalid_type.
func decodeMultipartBody(body io.Reader, header http.Header, schema *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	_, params, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Reason: "missing boundary", Cause: err}
	}
	var s *openapi3.Schema
	if schema != nil {
		s = schema.Value
	}
	malformed := func(err error) error {
		return &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Reason: "unreadable parts", Cause: err}
	}
	obj := map[string]any{}
	mr := multipart.NewReader(body, params["boundary"])
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, malformed(err)
		}
		if parts == maxMultipartParts {
			return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat,
				Cause: &limitError{fmt.Sprintf("Request body holds more than %d parts", maxMultipartParts)}}
		}
		name := part.FormName()
		if name == "" {
			continue // NextPart skips what is left of it
		}
		prop := propertyOf(s, name)
		item, many := prop, prop != nil && isArraySchema(prop)
		if many {
			item = itemsOf(prop)
		}
		var value any
		if isBinarySchema(item) || (item == nil && part.FileName() != "") {
			n, err := io.Copy(io.Discard, part)
			if err != nil {
				return nil, malformed(err)
			}
			value = ""
			if n > 0 {
				value = binaryPlaceholder
			}
			if strings.IndexByte(part.FileName(), 0) >= 0 {
				// A file name goes to the database, which refuses NUL: textIssues reports it.
				value = nulFileName
			} else if utf8.RuneCountInString(part.FileName()) > maxFileNameLength {
				value = longFileName // textIssues reports it at the part (validate_textlimits.go)
			}
		} else {
			data, err := io.ReadAll(part)
			if err != nil {
				return nil, malformed(err)
			}
			value = formValue(string(data), item, part.Header.Get("Content-Type"))
		}
		if many {
			list, _ := obj[name].([]any)
			obj[name] = append(list, value)
		} else if _, seen := obj[name]; !seen {
			obj[name] = value
		}
	}
	return obj, nil
}

// binaryPlaceholder stands for the content of a non-empty file part; nulFileName for a file part
// whose name holds the NUL character, longFileName for one whose name is too long, whatever
// its content.
const (
	binaryPlaceholder = "\x01"
	nulFileName       = "\x00"
	longFileName      = "\x02"
)

func isBinarySchema(s *openapi3.Schema) bool {
	return s != nil && s.Type.Permits(openapi3.TypeString) && s.Format == "binary"
}

// formValue gives a text part the type its schema declares, when it parses as such.
func formValue(raw string, s *openapi3.Schema, contentType string) any {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	if mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") ||
		(s != nil && (s.Type.Is(openapi3.TypeObject) || s.Type.Is(openapi3.TypeArray))) {
		var v any
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		// A JSON part beyond the limits of a JSON body stays a string: an invalid_type.
		if err := dec.Decode(&v); err == nil && checkJSONLimits(v) == nil {
			return v
		}
		return raw
	}
	if s == nil {
		return raw
	}
	for _, t := range s.Type.Slice() {
		switch t {
		case openapi3.TypeInteger, openapi3.TypeNumber:
			if jsonNumberRE.MatchString(raw) {
				return json.Number(raw)
			}
		case openapi3.TypeBoolean:
			if b, err := strconv.ParseBool(raw); err == nil {
				return b
			}
		case openapi3.TypeString:
			return raw
		}
	}
	return raw
}
