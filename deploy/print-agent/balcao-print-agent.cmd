@echo off
rem The Balcão print agent on a Windows PC (docs/print-agent.md). Put a shortcut to this file in
rem shell:startup (Win+R, shell:startup) so it starts with the session; the window must stay open.
rem The one command's --service writes this same loop there for you. By hand: pair once first with
rem   npx --yes https://seu-balcao/v1/printing/agent/balcao-print-agent.tgz pair CODIGO --printer tcp://192.168.0.50:9100
set BALCAO_AGENT_DIR=%APPDATA%\balcao-print-agent
:loop
call npx --yes https://seu-balcao/v1/printing/agent/balcao-print-agent.tgz start
rem Exit code 2: the agent was revoked in Configurações > Impressoras (pair it again). Anything else: restart.
if %ERRORLEVEL%==2 goto revoked
timeout /t 5 /nobreak >nul
goto loop
:revoked
echo O agente foi revogado: gere um novo codigo em Configuracoes ^> Impressoras e pareie de novo.
pause
