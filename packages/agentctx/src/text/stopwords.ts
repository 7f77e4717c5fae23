/** Words that carry no meaning for retrieval: English function words and prompt filler. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being
  below between both but by can cannot could couldn did didn do does doesn doing don down during each few
  for from further get gets got had hadn has hasn have haven having he her here hers herself him himself
  his how i if in into is isn it its itself just let lets me more most mustn my myself no nor not now of
  off on once only or other ought our ours ourselves out over own same shan she should shouldn so some
  such than that the their theirs them themselves then there these they this those through to too under
  until up very was wasn we were weren what when where which while who whom why will with won would
  wouldn you your yours yourself yourselves ve ll re im ive youre dont doesnt didnt cant wont isnt arent
  please thanks thank hey hi hello ok okay yes yeah sure maybe really actually basically just like
  something anything everything thing things stuff way lot lots bit kind sort much many
  want wants need needs let know think see look go going gonna wanna tell said say says
  could would should might must shall may us`
    .split(/\s+/)
    .filter(Boolean),
);
