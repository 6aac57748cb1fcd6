/* a macro is replaced only where it forms a whole identifier */
#define MAC 27
#define ID name
a.MAC
MAC-b
(MAC)
MAC:MAC:MAC
{MAC}
[MAC,MAC]
MAC+MAC*MAC/MAC
MACX XMAC MAC_1 _MAC MAC2 mac Mac
ID_x x_ID IDID ID.ID
MAC=ID;
<MAC>
a-MAC-b
