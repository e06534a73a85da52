; xml: no function bodies are collapsed (comment stripping only).
