-- Neovim set-up for `elemctl lsp`: deploy, probe and verify 1C:Element
-- projects from the editor, with progress, cancellation and the probe's
-- compilation errors as diagnostics. Needs Neovim 0.10+ and no plugin;
-- on an older Neovim setup() says so and returns false.
-- Put this file on your runtime path (for example
-- ~/.config/nvim/lua/elemctl_lsp.lua) and call
--
--   require('elemctl_lsp').setup({
--     -- elemctl = 'elemctl',        -- the binary
--     -- env_file = 'stand.env',     -- relative to the project root; default .env
--     -- app_id = 'tasks-demo',      -- default ELEMENT_APP_ID of the .env
--     -- project_dir = 'Acme/Tasks', -- default: searched from the root
--     -- extra_args = '--require-clean', -- further deploy flags
--     -- confirm_deploy = true,
--   })
--
-- Commands: :ElemctlDeploy, :ElemctlProbe, :ElemctlVerify, :ElemctlApps,
-- :ElemctlCancel (stops the running commands; an interrupted probe still
-- cleans up). Code lenses on Проект.yaml / Project.yaml: put the cursor on
-- the first line and run :lua vim.lsp.codelens.run().
--
-- With nvim-lspconfig instead of vim.lsp.start, the server is:
--   require('lspconfig.configs').elemctl = { default_config = {
--     cmd = { 'elemctl', 'lsp' }, filetypes = { 'yaml', 'xbsl' },
--     root_dir = require('lspconfig.util').root_pattern('.env', '.git'),
--     init_options = { commandPrefix = 'elemctl' } } }
--   require('lspconfig').elemctl.setup({})
-- and the commands below still work (they look the client up by name).

local M = {}

local PREFIX = 'elemctl'
local APP_COMMANDS = { deploy = true, verifyDeploy = true, ['apps.get'] = true, ['apps.debug'] = true }
local PROJECT_COMMANDS = { deploy = true, probe = true }

local opts = {}
local running = {} -- request id → command id

local function is_descriptor(name)
  local base = vim.fs.basename(name)
  return base == 'Проект.yaml' or base == 'Project.yaml'
end

-- The workspace root: the nearest directory with a .env or .git above the
-- buffer (the folder elemctl reads .env from), else the current directory.
local function root_of(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr or 0)
  local start = name ~= '' and vim.fs.dirname(name) or vim.fn.getcwd()
  local found = vim.fs.find({ '.env', '.git' }, { upward = true, path = start })[1]
  return found and vim.fs.dirname(found) or vim.fn.getcwd()
end

local function client_of(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local clients = get({ name = 'elemctl', bufnr = bufnr })
  if #clients == 0 then
    clients = get({ name = 'elemctl' })
  end
  return clients[1]
end

-- Neovim 0.11 made request and cancel_request methods.
local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function cancel(client, id)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:cancel_request(id)
  end
  return client.cancel_request(id)
end

local function start(bufnr)
  return vim.lsp.start({
    name = 'elemctl',
    cmd = { opts.elemctl or 'elemctl', 'lsp' },
    root_dir = root_of(bufnr),
    init_options = { commandPrefix = PREFIX },
  }, { bufnr = bufnr })
end

-- complete adds the options of setup() to a command's argument; keys the
-- caller (a code lens) gave win.
local function complete(id, arg)
  arg = vim.deepcopy(arg or {})
  arg.cwd = arg.cwd or root_of(0)
  arg.envFile = arg.envFile or opts.env_file
  if APP_COMMANDS[id] then
    arg.appId = arg.appId or opts.app_id
  end
  if PROJECT_COMMANDS[id] then
    arg.projectDir = arg.projectDir or opts.project_dir
  end
  if id == 'deploy' then
    arg.extraArgs = arg.extraArgs or opts.extra_args
  end
  return arg
end

-- run executes a server command. Progress arrives as $/progress (shown by
-- the LspProgress autocmd below), the verdict as a message, errors of a
-- probe as diagnostics; the answer is kept in require('elemctl_lsp').last.
function M.run(id, arg, on_result)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_of(bufnr)
  if not client then
    local client_id = start(bufnr)
    client = client_id and vim.lsp.get_client_by_id(client_id)
  end
  if not client then
    vim.notify('elemctl lsp is not running', vim.log.levels.ERROR)
    return
  end
  arg = complete(id, arg)
  if id == 'deploy' and opts.confirm_deploy ~= false then
    local what = arg.projectDir or arg.cwd
    if vim.fn.confirm(('Deploy %s to %s?'):format(what, arg.appId or 'ELEMENT_APP_ID'), '&Yes\n&No', 2) ~= 1 then
      return
    end
  end
  local ok, req_id
  ok, req_id = request(client, 'workspace/executeCommand', { command = PREFIX .. '.' .. id, arguments = { arg } },
    function(err, result)
      running[req_id] = nil
      if err then
        vim.notify(('elemctl %s: %s'):format(id, err.message), vim.log.levels.ERROR)
        return
      end
      M.last = result
      if on_result then
        on_result(result)
      end
    end, bufnr)
  if ok and req_id then
    running[req_id] = id
  end
end

-- cancel_all sends $/cancelRequest for every command still running.
function M.cancel_all()
  local client = client_of(0)
  if not client then
    return
  end
  for req_id in pairs(running) do
    cancel(client, req_id)
  end
end

-- The oldest Neovim this set-up runs on: it uses the LspProgress event,
-- vim.lsp.start and vim.fs, which came with 0.10 and 0.8.
local NEEDS = '0.10'

local function version_text()
  local ok, v = pcall(vim.version)
  if ok and type(v) == 'table' and v.major then
    return ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  end
  return 'an older one'
end

-- Returns true once set up; false (after saying why) on a Neovim older
-- than NEEDS, leaving the editor as it was.
function M.setup(user_opts)
  if vim.fn.has('nvim-' .. NEEDS) ~= 1 then
    vim.notify(('elemctl: this set-up needs Neovim %s or newer, and this is %s. '
      .. 'Update Neovim; meanwhile run elemctl from a terminal (elemctl deploy, elemctl probe).')
      :format(NEEDS, version_text()), vim.log.levels.ERROR)
    return false
  end
  opts = user_opts or {}
  vim.filetype.add({ extension = { xbsl = 'xbsl', xbql = 'xbql' } })
  local group = vim.api.nvim_create_augroup('elemctl_lsp', { clear = true })

  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = { 'xbsl', 'yaml' },
    callback = function(ev)
      if vim.bo[ev.buf].filetype == 'xbsl' or is_descriptor(vim.api.nvim_buf_get_name(ev.buf)) then
        start(ev.buf)
      end
    end,
  })
  -- Code lenses on project descriptors.
  vim.api.nvim_create_autocmd({ 'LspAttach', 'BufEnter', 'BufWritePost' }, {
    group = group,
    pattern = { '*/Проект.yaml', '*/Project.yaml' },
    callback = function(ev)
      pcall(vim.lsp.codelens.refresh, { bufnr = ev.buf })
    end,
  })
  -- Progress of elemctl's commands in the message area.
  vim.api.nvim_create_autocmd('LspProgress', {
    group = group,
    callback = function(ev)
      local client = vim.lsp.get_client_by_id(ev.data.client_id)
      local value = ev.data.params and ev.data.params.value
      if client and client.name == 'elemctl' and type(value) == 'table' then
        local text = value.kind == 'begin' and value.title or value.message
        if text then
          vim.api.nvim_echo({ { text } }, false, {})
        end
      end
    end,
  })

  -- A code lens runs through these: they add the options above to the
  -- lens's {cwd, projectDir} before the server gets it.
  for _, id in ipairs({ 'deploy', 'probe', 'verifyDeploy' }) do
    vim.lsp.commands[PREFIX .. '.' .. id] = function(command)
      M.run(id, command.arguments and command.arguments[1])
    end
  end

  vim.api.nvim_create_user_command('ElemctlDeploy', function() M.run('deploy') end, {})
  vim.api.nvim_create_user_command('ElemctlProbe', function() M.run('probe') end, {})
  vim.api.nvim_create_user_command('ElemctlVerify', function() M.run('verifyDeploy') end, {})
  vim.api.nvim_create_user_command('ElemctlCancel', M.cancel_all, {})
  vim.api.nvim_create_user_command('ElemctlApps', function()
    M.run('apps.list', { brief = true }, function(result)
      local lines = { result.summary or '' }
      for _, app in ipairs(result.applications or {}) do
        table.insert(lines, ('%s  %s  %s'):format(app.name or '', app.status or '', app.id or ''))
      end
      vim.notify(table.concat(lines, '\n'))
    end)
  end, {})
  return true
end

return M
