-- nvim-dap set-up for debugging 1C:Element applications through `elemctl dap`.
-- Put this file on your runtime path (for example ~/.config/nvim/lua/elemctl_dap.lua)
-- and call require('elemctl_dap').setup() after nvim-dap is loaded.
--
-- elemctl finds and starts the platform's Java debug adapter, looks the debug
-- session up on the platform (the .env of the project, or envFile) and fills
-- the attach request; nvim-dap only has to start `elemctl dap`.

local M = {}

-- opts.elemctl : the elemctl binary (default "elemctl" on PATH)
-- opts.adapter : the debug adapter directory (holds repo/); default: what
--                elemctl finds (ELEMCTL_DEBUG_ADAPTER or a plugin)
-- opts.java    : the java launcher; default JAVA_HOME, then PATH
-- opts.open_url: open the debugged application in the browser (default true)
function M.setup(opts)
  opts = opts or {}
  local dap = require('dap')

  vim.filetype.add({ extension = { xbsl = 'xbsl', xbql = 'xbql' } })

  local args = { 'dap' }
  if opts.adapter then
    vim.list_extend(args, { '--adapter', opts.adapter })
  end
  if opts.java then
    vim.list_extend(args, { '--java', opts.java })
  end

  dap.adapters.elemctl = function(callback)
    callback({
      type = 'executable',
      command = opts.elemctl or 'elemctl',
      args = args,
      options = { cwd = vim.fn.getcwd() },
    })
  end

  dap.configurations.xbsl = {
    {
      type = 'elemctl',
      request = 'attach',
      name = 'Debug 1C:Element application',
      -- An id or exact name; empty keeps ELEMENT_APP_ID from the .env file.
      appId = function()
        local app = vim.fn.input('Application (id or name, empty for ELEMENT_APP_ID): ')
        if app == '' then
          return nil
        end
        return app
      end,
      cwd = '${workspaceFolder}',
    },
  }

  -- elemctl sends the address that joins the browser to this session.
  dap.listeners.after['event_elemctl/debuggeeUrl']['elemctl'] = function(_, body)
    if not body or not body.url then
      return
    end
    if opts.open_url ~= false and vim.ui.open then
      vim.ui.open(body.url)
    else
      vim.notify('1C:Element: open ' .. body.url)
    end
  end
end

return M
