// The extension side of the "elemctl" debug type: VS Code starts
// `elemctl dap` and speaks DAP to it on stdio; elemctl finds and starts the
// platform's debug adapter, looks the debug session up and fills the attach
// request. Add this to an extension's activate() together with the
// contribution in vscode-debuggers.json.

import * as vscode from 'vscode';

/**
 * binary names the elemctl to start; by default the elemctl.path setting,
 * else elemctl on PATH.
 */
export function registerElemctlDebugger(context: vscode.ExtensionContext, binary?: () => string): void {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('elemctl', {
      createDebugAdapterDescriptor(session) {
        const cfg = vscode.workspace.getConfiguration('elemctl', session.workspaceFolder);
        const args = ['dap'];
        const adapter = cfg.get<string>('debugAdapterPath'); // optional settings of the extension
        const java = cfg.get<string>('javaPath');
        if (adapter) args.push('--adapter', adapter);
        if (java) args.push('--java', java);
        const command = binary ? binary() : cfg.get<string>('path') || 'elemctl';
        return new vscode.DebugAdapterExecutable(command, args, {
          cwd: session.workspaceFolder?.uri.fsPath,
        });
      },
    }),

    // elemctl announces the address that joins the browser to this debug
    // session; open it like the XBSL extension does.
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type === 'elemctl' && e.event === 'elemctl/debuggeeUrl' && e.body?.url) {
        void vscode.env.openExternal(vscode.Uri.parse(e.body.url, true));
      }
    }),
  );
}
