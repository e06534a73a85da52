#!/bin/sh
curl -s -H "Authorization: Bearer {{b64u:40}}" https://api.acme.io/v2/items
export NPM_TOKEN=npm_{{an:36}}
docker login -u ci -p {{an:20}} registry.example.com
