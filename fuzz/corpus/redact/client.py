import os

API_KEY = "{{b64:40}}"
headers = {'Authorization': 'Bearer {{b64u:40}}'}

def connect(password=os.environ['DB_PASSWORD']):
    token = lexer.next_token()
    return f"mysql://root:{{an:12}}@localhost/db"
