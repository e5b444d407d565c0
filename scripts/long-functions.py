#!/usr/bin/env python3
# Functions longer than a limit, outside test files: `scripts/long-functions.py domain/src 80`.
# Counts from the `fn` line to the closing brace at the same indent; stops at `#[cfg(test)]`.
import os,re,sys
root=sys.argv[1]; limit=int(sys.argv[2])
out=[]
for d,_,fs in os.walk(root):
  for f in fs:
    if not f.endswith('.rs') or 'test' in f: continue
    p=os.path.join(d,f); lines=open(p).read().split('\n')
    intest=False
    i=0
    while i<len(lines):
      l=lines[i]
      if re.match(r'\s*#\[cfg\(test\)\]',l): break
      m=re.match(r'^(\s*)(pub(\([^)]*\))? )?(const )?(async )?fn (\w+)',l)
      if m:
        ind=len(m.group(1)); j=i
        # find opening brace line then closing at same indent
        while j<len(lines) and not lines[j].rstrip().endswith('{') and not lines[j].rstrip().endswith(';'): j+=1
        if j<len(lines) and lines[j].rstrip().endswith(';'): i=j+1; continue
        k=j+1
        while k<len(lines) and not (lines[k].startswith(' '*ind+'}') and len(lines[k])-len(lines[k].lstrip())==ind): k+=1
        n=k-i+1
        if n>limit: out.append((n,p,m.group(6)))
        i=k+1; continue
      i+=1
for n,p,name in sorted(out,reverse=True): print(n,p,name)
