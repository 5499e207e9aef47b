-- Pandoc's two readings of every CommonMark spec example, in one Pandoc
-- process (one process per example would take a minute): for each
-- DIR/ex-N.md (N = 1..COUNT, given as metadata `dir` and `count`) it writes
--   DIR/ex-N.json  the tree litbook renders (commonmark_x+sourcepos, as
--                  parse_with_pandoc reads a chapter), and
--   DIR/ex-N.html  Pandoc's own html5 writer on the same Markdown, with line breaks as written
--                  and without highlighting (litbook has Pandoc highlight
--                  code, so highlighting is the same program in both).
-- A reader failure is written to DIR/ex-N.error instead.
local function save(path, text)
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
end

local function convert(dir, n)
  local f = assert(io.open(dir .. '/ex-' .. n .. '.md', 'rb'))
  local md = f:read('a')
  f:close()
  local tree = pandoc.read(md, 'commonmark_x+sourcepos')
  local plain = pandoc.read(md, 'commonmark_x')
  local html = pandoc.write(plain, 'html5',
                            {wrap_text = 'preserve', highlight_style = false})
  save(dir .. '/ex-' .. n .. '.json', pandoc.write(tree, 'json'))
  save(dir .. '/ex-' .. n .. '.html', html)
end

function Pandoc(doc)
  local dir = pandoc.utils.stringify(doc.meta.dir)
  local count = tonumber(pandoc.utils.stringify(doc.meta.count))
  for n = 1, count do
    local ok, err = pcall(convert, dir, n)
    if not ok then save(dir .. '/ex-' .. n .. '.error', tostring(err)) end
  end
  return pandoc.Pandoc({})
end
